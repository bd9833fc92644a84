//===- StructuredFuzzer.cpp - well-typed mxq functions, CPU vs reference --===//
//
// The fuzz input chooses an mxq function (op family, every attribute word
// from the dialect's table, element types, rank, axis, block, shapes with
// 0, 1, ragged and dynamic dimensions) and its data (edge bit patterns
// included). A function the verifiers accept must compile for the target
// (-target=cpu, the default, nvvm-emu or ascend; -chip=...), run, and give
// the reference's bytes; anything else aborts with the function. With
// -allow-refusals=1 a function the target refuses to compile or run, with a
// diagnostic, is skipped (and counted), as mxq-sweep --allow-refusals does;
// a wrong byte still aborts. Compiled functions are cached by their text
// (dynamic dimensions make one compile serve many inputs).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include "mxq/Dialect/MXQ/AttributeSpace.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Execution/Execution.h"
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Reference/Reference.h"
#include "mxq/Support/Npy.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <list>
#include <map>
#include <memory>

using namespace mlir;
using Shape = std::vector<int64_t>;

namespace {

/// The target every function is compiled for, from the command line.
struct Settings {
  std::string target = "cpu";
  ::mxq::TargetOptions options;
  bool allowRefusals = false;
  size_t refused = 0;
};
Settings &settings() {
  static auto &s = *new Settings();
  return s;
}

enum class Kind { Source, Codes, Scales, Step, ZeroPoint };

struct ArgSpec {
  Kind kind;
  std::string elt;
  Shape shape;
};

struct Function {
  std::string text;
  std::vector<ArgSpec> args;
};

std::string tensorType(const Shape &shape, const std::vector<bool> &dynamic,
                       const std::string &elt) {
  std::string s = "tensor<";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (dynamic[i] ? std::string("?") : std::to_string(shape[i])) + "x";
  return s + elt + ">";
}

/// Every dimension dynamic but the last `keep` ones (which stay `shape`'s).
std::string dynType(const Shape &shape, const std::string &elt,
                    size_t keep = 0) {
  std::vector<bool> dyn(shape.size(), true);
  for (size_t i = 0; i < keep && i < shape.size(); ++i)
    dyn[shape.size() - 1 - i] = false;
  return tensorType(shape, dyn, elt);
}

const std::string kScale = "f8E8M0FNU";

/// A dimension: small, ragged around the block, or whole blocks.
int64_t dim(::mxq::fuzz::Bytes &in, int64_t block, bool alongAxis) {
  static const std::vector<int64_t> small = {0, 1, 1, 2, 3, 5, 7, 31, 33, 64};
  if (!alongAxis || in.flag())
    return in.pick(small);
  switch (in.below(4)) {
  case 0:
    return block;
  case 1:
    return block + 1 + int64_t(in.below(block - 1));
  case 2:
    return 2 * block;
  default:
    return 1 + int64_t(in.below(block));
  }
}

/// Keeps tensors small: the product of the shape stays at most 8192.
void bound(Shape &shape) {
  int64_t n = 1;
  for (int64_t &d : shape) {
    if (d > 0 && n * d > 8192)
      d = 1;
    n *= d == 0 ? 1 : d;
  }
}

std::vector<bool> dynamics(::mxq::fuzz::Bytes &in, size_t rank) {
  std::vector<bool> d(rank);
  uint8_t bits = in.byte();
  for (size_t i = 0; i < rank; ++i)
    d[i] = (bits >> i) & 1;
  return d;
}

std::string word(const std::string &name, const std::string &value) {
  return " " + name + " = " + value;
}

/// Rank, axis, block and a shape with blocks along the axis (the bytes are
/// taken in that order: the kept fuzz inputs depend on it).
Shape blocked(::mxq::fuzz::Bytes &in, int64_t &rank, int64_t &axis,
              int64_t &block) {
  static const std::vector<int64_t> blocks = {32, 32, 32, 64, 96, 160, 1024};
  rank = 1 + in.below(3);
  axis = in.below(rank);
  block = in.pick(blocks);
  Shape shape(rank);
  for (int64_t i = 0; i < rank; ++i)
    shape[i] = dim(in, block, i == axis);
  bound(shape);
  return shape;
}

bool generate(::mxq::fuzz::Bytes &in, Function &f) {
  const auto &t = mlir::mxq::attributeSpace();
  std::string body;
  switch (in.below(6)) {
  case 0: { // quantize
    int64_t rank, axis, block;
    Shape shape = blocked(in, rank, axis, block);
    std::string src = in.pick(t.sourceTypes), elt = in.pick(t.codeTypes);
    std::string layout = in.pick(t.scaleLayouts);
    std::string tin = tensorType(shape, dynamics(in, rank), src);
    std::string tq = dynType(shape, elt);
    Shape sshape = shape;
    size_t keep = 0;
    if (layout == "pairs") {
      sshape.push_back(2);
      keep = 1;
    } else if (layout == "swizzle_32_4_4") {
      if (rank < 2)
        return false;
      sshape.assign(shape.begin(), shape.end() - 1);
    }
    std::string ts = dynType(sshape, kScale, keep);
    body = "%q, %s = mxq.quantize %a0 axis = " + std::to_string(axis) +
           " block = " + std::to_string(block) +
           word("scale", in.pick(t.scaleAlgorithms)) +
           word("inf", in.pick(t.infPolicies)) +
           word("rounding", in.pick(t.roundings)) +
           word("nan_element", in.pick(t.nanElements)) +
           word("underflow", in.pick(t.underflows)) +
           word("product", in.pick(t.products)) + word("layout", layout) +
           " : " + tin + " -> " + tq + ", " + ts;
    f.args = {{Kind::Source, src, shape}};
    f.text = "func.func @f(%a0: " + tin + ") -> (" + tq + ", " + ts + ") {\n  " +
             body + "\n  return %q, %s : " + tq + ", " + ts + "\n}\n";
    return true;
  }
  case 1: { // dequantize
    int64_t rank, axis, block;
    Shape shape = blocked(in, rank, axis, block);
    std::string elt = in.pick(t.codeTypes), res = in.pick(t.sourceTypes);
    std::string layout = in.pick(t.scaleLayouts);
    auto l = mlir::mxq::symbolizeScaleLayout(layout);
    Shape sshape;
    std::string err;
    if (!::mxq::scaleShape(shape, axis, block,
                           static_cast<::mxq::ScaleLayout>(*l), sshape, err))
      return false;
    std::string tq = tensorType(shape, dynamics(in, rank), elt);
    std::string ts = dynType(sshape, kScale, layout == "pairs" ? 1 : 0);
    std::string ty = dynType(shape, res);
    body = "%y = mxq.dequantize %a0, %a1 axis = " + std::to_string(axis) +
           " block = " + std::to_string(block) + word("layout", layout) +
           word("cast", in.pick(t.resultCasts)) + " : " + tq + ", " + ts +
           " -> " + ty;
    f.args = {{Kind::Codes, elt, shape}, {Kind::Scales, kScale, sshape}};
    f.text = "func.func @f(%a0: " + tq + ", %a1: " + ts + ") -> " + ty +
             " {\n  " + body + "\n  return %y : " + ty + "\n}\n";
    return true;
  }
  case 2: { // dual_quantize
    int64_t rank = 2 + in.below(2);
    Shape shape(rank);
    for (int64_t i = 0; i < rank; ++i)
      shape[i] = dim(in, 32, i >= rank - 2);
    bound(shape);
    std::string src = in.pick(t.sourceTypes), elt = in.pick(t.codeTypes);
    std::string tin = tensorType(shape, dynamics(in, rank), src);
    Shape t1 = shape;
    std::swap(t1[rank - 1], t1[rank - 2]);
    Shape sshape(shape.begin(), shape.end() - 1);
    std::string tq0 = dynType(shape, elt), tq1 = dynType(t1, elt);
    std::string ts = dynType(sshape, kScale);
    body = "%q0, %s0, %q1, %s1 = mxq.dual_quantize %a0" +
           word("scale", in.pick(t.scaleAlgorithms)) +
           word("inf", in.pick(t.infPolicies)) +
           word("rounding", in.pick(t.roundings)) +
           word("nan_element", in.pick(t.nanElements)) +
           word("underflow", in.pick(t.underflows)) + " : " + tin + " -> " +
           tq0 + ", " + ts + ", " + tq1 + ", " + ts;
    std::string res = tq0 + ", " + ts + ", " + tq1 + ", " + ts;
    f.args = {{Kind::Source, src, shape}};
    f.text = "func.func @f(%a0: " + tin + ") -> (" + res + ") {\n  " + body +
             "\n  return %q0, %s0, %q1, %s1 : " + res + "\n}\n";
    return true;
  }
  case 3: { // two_level_quantize
    int64_t rank = 1 + in.below(3);
    Shape shape(rank);
    static const std::vector<int64_t> lasts = {2, 30, 64, 100, 512, 514, 1030};
    for (int64_t i = 0; i + 1 < rank; ++i)
      shape[i] = dim(in, 32, false);
    shape[rank - 1] = in.pick(lasts);
    bound(shape);
    if (shape[rank - 1] % 2)
      return false;
    std::string src = in.flag() ? "bf16" : "f16";
    std::string tin = tensorType(shape, dynamics(in, rank), src);
    bool smooth = in.flag();
    Shape l1 = shape;
    l1.push_back(2);
    std::string ty = dynType(shape, "f4E2M1FN"), t0 = dynType(shape, "f32"),
                t1 = dynType(l1, kScale, 1);
    std::string tsm = "tensor<?x" + src + ">";
    body = "%y, %l0, %l1 = mxq.two_level_quantize %a0" +
           std::string(smooth ? " smooth %a1" : "") +
           word("rounding", in.pick(t.roundings)) +
           word("nan_element", in.pick(t.nanElements)) +
           word("div_denormals", in.pick(t.divDenormals)) + " : " + tin +
           (smooth ? ", " + tsm : "") + " -> " + ty + ", " + t0 + ", " + t1;
    f.args = {{Kind::Source, src, shape}};
    if (smooth)
      f.args.push_back({Kind::Source, src, {shape[rank - 1]}});
    std::string res = ty + ", " + t0 + ", " + t1;
    f.text = "func.func @f(%a0: " + tin + (smooth ? ", %a1: " + tsm : "") +
             ") -> (" + res + ") {\n  " + body + "\n  return %y, %l0, %l1 : " +
             res + "\n}\n";
    return true;
  }
  default: { // fake_quant and its gradient
    bool grad = in.flag();
    int64_t rank = 1 + in.below(3);
    Shape shape(rank);
    for (int64_t i = 0; i < rank; ++i)
      shape[i] = dim(in, 32, false);
    bound(shape);
    std::string src = in.pick(t.sourceTypes);
    std::string tin = tensorType(shape, dynamics(in, rank), src);
    static const std::vector<std::pair<const char *, const char *>> ranges = {
        {"-448.0", "448.0"}, {"-57344.0", "57344.0"}, {"-240.0", "240.0"},
        {"0.0", "448.0"},    {"-1.0", "1.0"},         {"-0.125", "3.5"}};
    auto [qmin, qmax] = in.pick(ranges);
    bool perChannel = in.flag();
    int64_t axis = in.below(rank);
    Shape pshape = {perChannel ? shape[axis] : 1};
    std::string tp = perChannel ? "tensor<?xf32>" : "tensor<1xf32>";
    std::string axisText = perChannel ? " axis = " + std::to_string(axis) : "";
    if (grad) {
      body = std::string("%y = mxq.fake_quant_grad %a0, %a1, %a2 quant_min = ") +
             qmin + " quant_max = " + qmax + axisText + " : " + tin + ", " + tp;
      f.args = {{Kind::Source, src, shape},
                {Kind::Source, src, shape},
                {Kind::Step, "f32", pshape}};
      f.text = "func.func @f(%a0: " + tin + ", %a1: " + tin + ", %a2: " + tp +
               ") -> " + tin + " {\n  " + body + "\n  return %y : " + tin +
               "\n}\n";
      return true;
    }
    std::string format = in.flag() ? "f8E4M3FN" : "f8E5M2";
    body = "%y = mxq.fake_quant %a0, %a1, %a2 format = " + format +
           " quant_min = " + qmin + " quant_max = " + qmax + axisText + " : " +
           tin + ", " + tp + ", " + tp;
    f.args = {{Kind::Source, src, shape},
              {Kind::Step, "f32", pshape},
              {Kind::ZeroPoint, "f32", pshape}};
    f.text = "func.func @f(%a0: " + tin + ", %a1: " + tp + ", %a2: " + tp +
             ") -> " + tin + " {\n  " + body + "\n  return %y : " + tin +
             "\n}\n";
    return true;
  }
  }
}

/// Bit patterns worth trying for a float of `bits` bits.
uint32_t edgeBits(::mxq::fuzz::Bytes &in, unsigned bits) {
  static const std::vector<uint32_t> f32 = {
      0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x7f800000,
      0xff800000, 0x7fc00000, 0xffc00001, 0x43e00000, 0x43e08000, 0x43e80000,
      0x47600000, 0x7f7fffff, 0x3f800000, 0x3fc00000, 0x40c00000, 0x3e800000};
  uint32_t v = in.pick(f32);
  return bits == 32 ? v : v >> 16;
}

void fill(::mxq::fuzz::Bytes &in, const ArgSpec &a, Type type,
          ::mxq::RawTensor &t) {
  t.elementType = type;
  t.shape = a.shape;
  unsigned width = ::mxq::bytesPerElement(type);
  int64_t n = 1;
  for (int64_t d : a.shape)
    n *= d;
  t.data.assign(size_t(n) * width, 0);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *p = t.data.data() + i * width;
    switch (a.kind) {
    case Kind::Source: {
      unsigned bits = width * 8;
      uint32_t v;
      uint8_t how = in.byte() % 4;
      if (how == 0) {
        v = edgeBits(in, bits);
      } else if (how == 1) {
        v = in.u32();
      } else {
        // A normal value near 1 scaled into a few binades (block-like data).
        float x = (float(in.byte()) - 128.0f) / 16.0f *
                  float(1u << (in.byte() % 12));
        std::memcpy(&v, &x, 4);
        if (bits == 16)
          v >>= 16;
      }
      std::memcpy(p, &v, width);
      break;
    }
    case Kind::Codes: {
      unsigned w = type.getIntOrFloatBitWidth();
      p[0] = in.byte() & ((1u << w) - 1);
      break;
    }
    case Kind::Scales:
      p[0] = in.byte();
      break;
    case Kind::Step: {
      float x = float(1 + in.byte()) / 64.0f;
      std::memcpy(p, &x, 4);
      break;
    }
    case Kind::ZeroPoint: {
      float x = (float(in.byte()) - 128.0f) / 8.0f;
      std::memcpy(p, &x, 4);
      break;
    }
    }
  }
  // FP4 codes are packed two per byte along the last axis in memory.
  if (isa<Float4E2M1FNType>(type))
    t.data = ::mxq::ref::packFP4(t.data, t.shape);
}

/// The compiled functions, by text, at most 128 (least recently used out).
::mxq::CompiledFunction *compiled(ModuleOp module, const std::string &text) {
  // Never destroyed: an ExecutionEngine torn down by exit(), after LLVM's
  // own statics, would touch freed memory.
  static auto &cache =
      *new std::map<std::string, std::unique_ptr<::mxq::CompiledFunction>>();
  static auto &order = *new std::list<std::string>();
  auto it = cache.find(text);
  if (it != cache.end()) {
    order.remove(text);
    order.push_back(text);
    return it->second.get();
  }
  std::string err;
  auto fn = ::mxq::CompiledFunction::compile(module, "f", settings().target,
                                             settings().options, err);
  if (!fn) {
    if (settings().allowRefusals) {
      ++settings().refused;
      return nullptr;
    }
    ::mxq::fuzz::fail("a verified function does not compile for " +
                      settings().target + ": " + err + "\n" + text);
  }
  if (cache.size() >= 128) {
    cache.erase(order.front());
    order.pop_front();
  }
  order.push_back(text);
  return (cache[text] = std::move(fn)).get();
}

/// With MXQ_FUZZ_DUMP=DIR, a failing case is written out for mxq-run:
/// DIR/f.mlir and DIR/in<i>.npy (mxq-run's conventions).
void dump(const Function &f, const std::vector<::mxq::RawTensor> &inputs) {
  const char *dir = std::getenv("MXQ_FUZZ_DUMP");
  if (!dir)
    return;
  std::error_code ec;
  llvm::raw_fd_ostream os(std::string(dir) + "/f.mlir", ec);
  if (!ec)
    os << f.text;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string err;
    ::mxq::npy::write(std::string(dir) + "/in" + std::to_string(i) + ".npy",
                      ::mxq::tensorToNpy(inputs[i]), err);
  }
}

} // namespace

/// -target=NAME, -chip=SPEC and -allow-refusals=1 (libFuzzer passes its
/// command line here and ignores flags it does not know).
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  Settings &s = settings();
  for (int i = 1; i < *argc; ++i) {
    llvm::StringRef a((*argv)[i]);
    a.consume_front("-");
    a.consume_front("-");
    if (a.consume_front("target="))
      s.target = a.str();
    else if (a.consume_front("chip="))
      s.options.chip = a.str();
    else if (a.consume_front("allow-refusals="))
      s.allowRefusals = a == "1" || a == "true";
  }
  ::mxq::registerAllTargets();
  const ::mxq::Target *t = ::mxq::lookupTarget(s.target);
  std::string why;
  if (!t) {
    std::fprintf(stderr, "mxq-structured-fuzzer: no target '%s'\n",
                 s.target.c_str());
    return 1;
  }
  if (!t->checkOptions(s.options, why) || !t->canRun(why)) {
    std::fprintf(stderr, "mxq-structured-fuzzer: target '%s': %s\n",
                 s.target.c_str(), why.c_str());
    return 1;
  }
  std::atexit([] {
    if (settings().allowRefusals)
      std::printf("mxq-structured-fuzzer: %zu functions refused by %s\n",
                  settings().refused, settings().target.c_str());
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = ::mxq::fuzz::context();
  ::mxq::fuzz::Bytes in(data, size);
  Function f;
  if (!generate(in, f))
    return 0;
  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(f.text, config);
  if (!module)
    ::mxq::fuzz::fail("a generated function does not parse:\n" + f.text);
  if (failed(verify(*module)))
    return 0; // a combination the verifiers reject
  auto func = module->lookupSymbol<func::FuncOp>("f");
  std::vector<::mxq::RawTensor> inputs(f.args.size());
  for (size_t i = 0; i < f.args.size(); ++i)
    fill(in, f.args[i],
         cast<RankedTensorType>(func.getFunctionType().getInput(i))
             .getElementType(),
         inputs[i]);
  std::string err;
  if (!::mxq::checkInputs(func, inputs, err))
    return 0; // data the function does not take (e.g. an odd last dim)
  std::vector<::mxq::RawTensor> expected, got;
  // Everything below that fails aborts; write the case out first.
  auto failWith = [&](const std::string &what) {
    dump(f, inputs);
    ::mxq::fuzz::fail(what);
  };
  if (!::mxq::interpret(func, inputs, expected, err))
    failWith("the reference fails on checked inputs: " + err + "\n" +
                      f.text);
  ::mxq::CompiledFunction *fn = compiled(*module, f.text);
  if (!fn)
    return 0; // refused, with -allow-refusals
  if (!fn->run(inputs, got, err)) {
    if (settings().allowRefusals) { // a target that lowers per shape
      ++settings().refused;
      return 0;
    }
    failWith("the compiled function fails: " + err + "\n" + f.text);
  }
  if (got.size() != expected.size())
    failWith("result counts differ\n" + f.text);
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i].shape != expected[i].shape)
      failWith("result " + std::to_string(i) + ": shape " +
                        ::mxq::shapeToString(got[i].shape) + " (compiled) vs " +
                        ::mxq::shapeToString(expected[i].shape) +
                        " (reference)\n" + f.text);
    if (got[i].data != expected[i].data) {
      size_t at = 0;
      while (got[i].data[at] == expected[i].data[at])
        ++at;
      failWith("result " + std::to_string(i) + " differs at byte " +
                        std::to_string(at) + " (compiled " +
                        std::to_string(got[i].data[at]) + ", reference " +
                        std::to_string(expected[i].data[at]) + "), shape " +
                        ::mxq::shapeToString(got[i].shape) + "\n" + f.text);
    }
  }
  return 0;
}
