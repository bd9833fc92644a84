//===- StructuredFuzzer.cpp - well-typed mxq functions vs the reference ---===//
//
// The fuzz input is two parts. Its first kStructureBytes choose an mxq
// function from a bounded space (op family, every attribute word from the
// dialect's table, the stored-scale conventions with their own words,
// element types, rank, axis, block, which dimensions are dynamic and the
// sizes of the static ones): everything in the function's text. The rest is
// its data: the sizes of the dynamic dimensions (0, 1, ragged, whole
// blocks) and the elements (edge bit patterns: NaNs with payloads,
// subnormals, infinities, saturating values). A function the verifiers
// accept must compile for the target (-target=cpu, the default, nvvm-emu
// or ascend; -chip=...), run, and give the reference's bytes; anything else
// aborts with the function. With -allow-refusals=1 a function the target
// refuses to compile or run, with a diagnostic, is skipped (and counted),
// as mxq-sweep --allow-refusals does; a wrong byte still aborts.
//
// A function is parsed, verified and compiled once and cached by its text,
// so that most executions are new data through a compiled function. The
// mutator (LLVMFuzzerCustomMutator, which libFuzzer and the standalone
// driver both call) changes only the data part of an input but once in
// -new_function_every=N mutations (default 100), when it changes the
// structure part alone, so that new functions keep arriving at a bounded
// rate and the compiler is still fuzzed. Replaying an input is
// deterministic: what it runs depends on its bytes alone.
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

#include <algorithm>
#include <cmath>
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
  /// Distinct functions seen, and those compiled.
  size_t structures = 0, compiled = 0;
  /// One mutation in this many changes the function (-new_function_every=N).
  unsigned newFunctionEvery = 100;
};
Settings &settings() {
  static auto &s = *new Settings();
  return s;
}

/// The bytes that choose the function; the data follows them.
constexpr size_t kStructureBytes = 32;

enum class Kind { Source, Codes, Scales, Step, ZeroPoint, Outer };

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

/// Where the choices come from: the structure bytes (which make the
/// function's text) or the data bytes (which do not).
struct Readers {
  ::mxq::fuzz::Bytes &st; ///< the function: everything in its text
  ::mxq::fuzz::Bytes &dt; ///< its data: dynamic sizes, elements
  ::mxq::fuzz::Bytes &of(bool dynamic) { return dynamic ? dt : st; }
};

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

/// Keeps tensors small: the product of the shape stays at most 8192. The
/// static dimensions are bounded first, so that their sizes (which are in
/// the function's text) never depend on the dynamic ones (which are data).
void bound(Shape &shape, const std::vector<bool> &dynamic) {
  int64_t n = 1;
  for (bool pass : {false, true})
    for (size_t i = 0; i < shape.size(); ++i) {
      if (dynamic[i] != pass)
        continue;
      int64_t &d = shape[i];
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

/// A shape of `rank` whose dimension i is `pick(reader, i)`, taken from the
/// structure bytes where it is static and from the data bytes where it is
/// dynamic; `dynamic` is chosen first, by the structure.
template <typename Pick>
Shape shapeOf(Readers &r, size_t rank, std::vector<bool> &dynamic, Pick pick) {
  dynamic = dynamics(r.st, rank);
  Shape shape(rank);
  for (size_t i = 0; i < rank; ++i)
    shape[i] = pick(r.of(dynamic[i]), i);
  bound(shape, dynamic);
  return shape;
}

std::string word(const std::string &name, const std::string &value) {
  return " " + name + " = " + value;
}

/// The scale element type and the words of a quantize's scale: E8M0 with
/// the MX words, or (scale = encode | decode) NVFP4's E4M3 scales or
/// blockwise FP8's f32 scales, each with the words it takes. Most
/// combinations of random words are ones the verifiers reject; these are
/// drawn so that the stored-scale conventions are reached at all.
struct ScaleChoice {
  std::string type = "f8E8M0FNU";
  std::string words;   ///< after `scale = ...`
  std::string outer;   ///< "", "scalar" or "line": NVFP4's outer operand
  bool nvfp4() const { return type == "f8E4M3FN"; }
  bool f32() const { return type == "f32"; }
};

bool generate(Readers &r, Function &f) {
  const auto &t = mlir::mxq::attributeSpace();
  ::mxq::fuzz::Bytes &st = r.st;
  std::string body;
  switch (st.below(6)) {
  case 0:
  case 1: { // quantize, dequantize
    bool quantize = st.flag();
    static const std::vector<int64_t> blocks = {16, 32, 32, 64, 96, 128, 160,
                                                1024};
    int64_t rank = 1 + st.below(3);
    int64_t axis = st.below(rank);
    std::string algorithm = st.pick(t.scaleAlgorithms);
    bool convention = algorithm == "encode" || algorithm == "decode";
    ScaleChoice sc;
    int64_t block = st.pick(blocks);
    std::string elt, layout = "linear";
    if (convention && st.flag()) { // NVFP4
      sc.type = "f8E4M3FN";
      block = 16;
      elt = "f4E2M1FN";
      layout = st.flag() ? "linear" : "swizzle_32_4_4";
      uint8_t o = st.byte() % 3;
      sc.outer = o == 0 && !(algorithm == "encode" && !quantize) ? ""
                 : o == 1                                         ? "line"
                                                                  : "scalar";
    } else if (convention) { // blockwise FP8
      sc.type = "f32";
      elt = st.flag() ? "f8E4M3FN" : "f8E5M2";
      static const std::vector<std::string> floors = {"", "1.0e-04",
                                                      "1.0e-12", "0.0"};
      std::string floor = st.pick(floors);
      if (quantize) {
        if (!floor.empty())
          sc.words += " amax_floor = " + floor;
        if (st.flag())
          sc.words += " pow2";
        if (algorithm == "decode" && st.flag())
          sc.words += " division = reciprocal";
      }
    } else {
      elt = st.pick(t.codeTypes);
      layout = st.pick(t.scaleLayouts);
      if (quantize)
        sc.words = word("inf", st.pick(t.infPolicies)) +
                   word("rounding", st.pick(t.roundings)) +
                   word("nan_element", st.pick(t.nanElements)) +
                   word("underflow", st.pick(t.underflows)) +
                   word("product", st.pick(t.products));
    }
    std::string wide = st.pick(t.sourceTypes);
    std::string cast = quantize ? "" : word("cast", st.pick(t.resultCasts));
    std::vector<bool> dyn;
    Shape shape = shapeOf(r, rank, dyn, [&](::mxq::fuzz::Bytes &in, size_t i) {
      return dim(in, block, int64_t(i) == axis);
    });
    auto l = mlir::mxq::symbolizeScaleLayout(layout);
    Shape sshape;
    std::string err;
    if (!::mxq::scaleShape(shape, axis, block,
                           static_cast<::mxq::ScaleLayout>(*l), sshape, err))
      return false;
    std::string ts = dynType(sshape, sc.type, layout == "pairs" ? 1 : 0);
    // The outer operand: rank 0, or one value per line (the data's shape
    // without the axis).
    Shape oshape;
    std::string to, outerText;
    if (!sc.outer.empty()) {
      if (sc.outer == "line") {
        oshape = shape;
        oshape.erase(oshape.begin() + axis);
      }
      to = dynType(oshape, "f32");
      outerText = " outer(%o : " + to + ")";
    }
    std::string head = " axis = " + std::to_string(axis) +
                       " block = " + std::to_string(block);
    if (quantize) {
      std::string tin = tensorType(shape, dyn, wide), tq = dynType(shape, elt);
      body = "%q, %s = mxq.quantize %a0" + outerText + head +
             word("scale", algorithm) + sc.words + word("layout", layout) +
             " : " + tin + " -> " + tq + ", " + ts;
      f.args = {{Kind::Source, wide, shape}};
      std::string params = "%a0: " + tin;
      if (!sc.outer.empty()) {
        f.args.push_back({Kind::Outer, "f32", oshape});
        params += ", %o: " + to;
      }
      f.text = "func.func @f(" + params + ") -> (" + tq + ", " + ts +
               ") {\n  " + body + "\n  return %q, %s : " + tq + ", " + ts +
               "\n}\n";
      return true;
    }
    std::string tq = tensorType(shape, dyn, elt), ty = dynType(shape, wide);
    std::string scaleWord = sc.nvfp4() ? word("scale", algorithm) : "";
    body = "%y = mxq.dequantize %a0, %a1" + outerText + head + scaleWord +
           word("layout", layout) + cast + " : " + tq + ", " + ts + " -> " +
           ty;
    f.args = {{Kind::Codes, elt, shape},
              {sc.f32() ? Kind::Source : Kind::Scales, sc.type, sshape}};
    std::string params = "%a0: " + tq + ", %a1: " + ts;
    if (!sc.outer.empty()) {
      f.args.push_back({Kind::Outer, "f32", oshape});
      params += ", %o: " + to;
    }
    f.text = "func.func @f(" + params + ") -> " + ty + " {\n  " + body +
             "\n  return %y : " + ty + "\n}\n";
    return true;
  }
  case 2: { // dual_quantize
    int64_t rank = 2 + st.below(2);
    std::vector<bool> dyn;
    Shape shape = shapeOf(r, rank, dyn, [&](::mxq::fuzz::Bytes &in, size_t i) {
      return dim(in, 32, int64_t(i) >= rank - 2);
    });
    std::string src = st.pick(t.sourceTypes), elt = st.pick(t.codeTypes);
    std::string tin = tensorType(shape, dyn, src);
    Shape t1 = shape;
    std::swap(t1[rank - 1], t1[rank - 2]);
    Shape sshape(shape.begin(), shape.end() - 1);
    std::string tq0 = dynType(shape, elt), tq1 = dynType(t1, elt);
    std::string ts = dynType(sshape, kScale);
    body = "%q0, %s0, %q1, %s1 = mxq.dual_quantize %a0" +
           word("scale", st.pick(t.scaleAlgorithms)) +
           word("inf", st.pick(t.infPolicies)) +
           word("rounding", st.pick(t.roundings)) +
           word("nan_element", st.pick(t.nanElements)) +
           word("underflow", st.pick(t.underflows)) + " : " + tin + " -> " +
           tq0 + ", " + ts + ", " + tq1 + ", " + ts;
    std::string res = tq0 + ", " + ts + ", " + tq1 + ", " + ts;
    f.args = {{Kind::Source, src, shape}};
    f.text = "func.func @f(%a0: " + tin + ") -> (" + res + ") {\n  " + body +
             "\n  return %q0, %s0, %q1, %s1 : " + res + "\n}\n";
    return true;
  }
  case 3: { // two_level_quantize
    int64_t rank = 1 + st.below(3);
    static const std::vector<int64_t> lasts = {2, 30, 64, 100, 512, 514, 1030};
    std::vector<bool> dyn;
    Shape shape = shapeOf(r, rank, dyn, [&](::mxq::fuzz::Bytes &in, size_t i) {
      return int64_t(i) + 1 < rank ? dim(in, 32, false) : in.pick(lasts);
    });
    if (shape[rank - 1] % 2)
      return false;
    std::string src = st.flag() ? "bf16" : "f16";
    std::string tin = tensorType(shape, dyn, src);
    bool smooth = st.flag();
    Shape l1 = shape;
    l1.push_back(2);
    std::string ty = dynType(shape, "f4E2M1FN"), t0 = dynType(shape, "f32"),
                t1 = dynType(l1, kScale, 1);
    std::string tsm = "tensor<?x" + src + ">";
    body = "%y, %l0, %l1 = mxq.two_level_quantize %a0" +
           std::string(smooth ? " smooth %a1" : "") +
           word("rounding", st.pick(t.roundings)) +
           word("nan_element", st.pick(t.nanElements)) +
           word("div_denormals", st.pick(t.divDenormals)) + " : " + tin +
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
    bool grad = st.flag();
    int64_t rank = 1 + st.below(3);
    std::vector<bool> dyn;
    Shape shape = shapeOf(r, rank, dyn, [&](::mxq::fuzz::Bytes &in, size_t) {
      return dim(in, 32, false);
    });
    std::string src = st.pick(t.sourceTypes);
    std::string tin = tensorType(shape, dyn, src);
    static const std::vector<std::pair<const char *, const char *>> ranges = {
        {"-448.0", "448.0"}, {"-57344.0", "57344.0"}, {"-240.0", "240.0"},
        {"0.0", "448.0"},    {"-1.0", "1.0"},         {"-0.125", "3.5"}};
    auto [qmin, qmax] = st.pick(ranges);
    bool perChannel = st.flag();
    int64_t axis = st.below(rank);
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
    std::string format = st.flag() ? "f8E4M3FN" : "f8E5M2";
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
    case Kind::Outer: { // an amax (TE) or a per-tensor scale (torchao)
      uint32_t v;
      if (in.byte() % 4 == 0) {
        v = edgeBits(in, 32);
      } else {
        float x = float(1 + in.byte()) / 16.0f *
                  std::ldexp(1.0f, int(in.byte() % 24) - 12);
        std::memcpy(&v, &x, 4);
      }
      std::memcpy(p, &v, 4);
      break;
    }
    }
  }
  // FP4 codes are packed two per byte along the last axis in memory.
  if (isa<Float4E2M1FNType>(type))
    t.data = ::mxq::ref::packFP4(t.data, t.shape);
}

/// A function of the structure bytes, once parsed, verified and compiled.
struct Entry {
  OwningOpRef<ModuleOp> module; ///< null: the verifiers reject it
  func::FuncOp func;
  std::unique_ptr<::mxq::CompiledFunction> fn; ///< null: the target refused
};

/// The functions by text, at most 256 (least recently used out). Each is
/// parsed, verified and compiled at its first use only.
Entry &entryFor(const std::string &text) {
  // Never destroyed: an ExecutionEngine torn down by exit(), after LLVM's
  // own statics, would touch freed memory.
  static auto &cache = *new std::map<std::string, Entry>();
  static auto &order = *new std::list<std::string>();
  auto it = cache.find(text);
  if (it != cache.end()) {
    order.remove(text);
    order.push_back(text);
    return it->second;
  }
  if (cache.size() >= 256) {
    cache.erase(order.front());
    order.pop_front();
  }
  order.push_back(text);
  Entry &e = cache[text];
  ++settings().structures;
  ParserConfig config(&::mxq::fuzz::context(), /*verifyAfterParse=*/false);
  e.module = parseSourceString<ModuleOp>(text, config);
  if (!e.module)
    ::mxq::fuzz::fail("a generated function does not parse:\n" + text);
  if (failed(verify(*e.module))) {
    e.module = nullptr; // a combination the verifiers reject
    return e;
  }
  e.func = e.module->lookupSymbol<func::FuncOp>("f");
  std::string err;
  e.fn = ::mxq::CompiledFunction::compile(*e.module, "f", settings().target,
                                          settings().options, err);
  if (!e.fn) {
    if (!settings().allowRefusals)
      ::mxq::fuzz::fail("a verified function does not compile for " +
                        settings().target + ": " + err + "\n" + text);
    ++settings().refused;
  } else {
    ++settings().compiled;
  }
  return e;
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
    else if (a.consume_front("new_function_every=")) {
      unsigned n = 0;
      if (a.getAsInteger(10, n) || n == 0) {
        std::fprintf(stderr,
                     "mxq-structured-fuzzer: -new_function_every takes a "
                     "positive number, not '%s'\n",
                     a.str().c_str());
        return 1;
      }
      s.newFunctionEvery = n;
    }
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
    const Settings &s = settings();
    std::printf("mxq-structured-fuzzer: %zu distinct functions, %zu compiled "
                "for %s\n",
                s.structures, s.compiled, s.target.c_str());
    if (s.allowRefusals)
      std::printf("mxq-structured-fuzzer: %zu functions refused by %s\n",
                  s.refused, s.target.c_str());
  });
  return 0;
}

/// libFuzzer's mutator (the standalone driver has its own).
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

/// Mutates the data part of an input, or once in `newFunctionEvery` its
/// structure part alone (a new function, most likely, on the same data).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  if (maxSize < kStructureBytes)
    return LLVMFuzzerMutate(data, size, maxSize);
  if (size < kStructureBytes) { // the missing structure bytes read as 0
    std::memset(data + size, 0, kStructureBytes - size);
    size = kStructureBytes;
  }
  if (seed % settings().newFunctionEvery == 0) {
    uint8_t head[kStructureBytes];
    std::memcpy(head, data, kStructureBytes);
    size_t n = LLVMFuzzerMutate(head, kStructureBytes, kStructureBytes);
    std::memset(head + n, 0, kStructureBytes - n);
    std::memcpy(data, head, kStructureBytes);
    return size;
  }
  return kStructureBytes + LLVMFuzzerMutate(data + kStructureBytes,
                                            size - kStructureBytes,
                                            maxSize - kStructureBytes);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t head = std::min(size, kStructureBytes);
  ::mxq::fuzz::Bytes st(data, head), dt(data + head, size - head);
  Readers r{st, dt};
  Function f;
  if (!generate(r, f))
    return 0;
  Entry &e = entryFor(f.text);
  if (!e.module)
    return 0; // a combination the verifiers reject
  func::FuncOp func = e.func;
  std::vector<::mxq::RawTensor> inputs(f.args.size());
  for (size_t i = 0; i < f.args.size(); ++i)
    fill(dt, f.args[i],
         cast<RankedTensorType>(func.getFunctionType().getInput(i))
             .getElementType(),
         inputs[i]);
  std::string err;
  if (!::mxq::checkInputs(func, inputs, err))
    return 0; // data the function does not take (e.g. an odd last dim)
  if (!e.fn)
    return 0; // refused, with -allow-refusals
  std::vector<::mxq::RawTensor> expected, got;
  // Everything below that fails aborts; write the case out first.
  auto failWith = [&](const std::string &what) {
    dump(f, inputs);
    ::mxq::fuzz::fail(what);
  };
  if (!::mxq::interpret(func, inputs, expected, err))
    failWith("the reference fails on checked inputs: " + err + "\n" + f.text);
  if (!e.fn->run(inputs, got, err)) {
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
