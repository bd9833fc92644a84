//===- mxq-sweep.cpp - every attribute combination, compiled vs reference -===//
//
//   mxq-sweep [--family=quantize,...] [--match=REGEX] [--sample=N]
//             [--seed=S] [--shard=I/N]
//             [--print-table] [--list] [--keep-going]
//
// Enumerates, per op family, every combination of the values in the
// attribute table (mxq/Dialect/MXQ/AttributeSpace.h: element formats, scale
// rules, Inf and NaN policies, roundings, NaN codes, layouts, blocks, every
// axis of ranks 1-3, every input or result type, static, dynamic, ragged and
// size-1 shapes), keeps those the verifiers accept, compiles each for the
// CPU and runs it and the C++ reference on edge-case and random data, and
// reports every byte that differs with its function. --sample takes N
// accepted combinations of each family at random (a fixed seed: the bounded run of the test
// suite); without it, all of them (scripts/sweep.sh).
//
//===----------------------------------------------------------------------===//
#include "mxq/Dialect/MXQ/AttributeSpace.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/InitAll.h"
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Reference/Reference.h"
#include "mxq/Target/Target.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>

using namespace mlir;
namespace cl = llvm::cl;
using Shape = std::vector<int64_t>;

static cl::OptionCategory category("mxq-sweep options");
static cl::list<std::string> families(
    "family", cl::CommaSeparated, cl::cat(category),
    cl::desc("op families to sweep: quantize, dequantize, dual_quantize, "
             "two_level_quantize, fake_quant, fake_quant_grad (default: "
             "all)"));
static cl::opt<int64_t> sample(
    "sample", cl::init(0), cl::cat(category),
    cl::desc("run N accepted combinations of each family drawn at random "
             "(0: all)"));
static cl::opt<uint64_t> seed("seed", cl::init(1), cl::cat(category),
                              cl::desc("seed of the draw and of the data"));
static cl::opt<std::string> shard(
    "shard", cl::init(""), cl::cat(category),
    cl::desc("I/N: run only the combinations whose index is I modulo N"));
static cl::opt<std::string> matchAttrs(
    "match", cl::init(""), cl::cat(category),
    cl::desc("keep only the combinations whose attribute words match this "
             "regular expression (e.g. 'scale = (encode|decode)')"));
static cl::opt<bool> printTable("print-table", cl::cat(category),
                                cl::desc("print the attribute table and exit"));
static cl::opt<unsigned> strength(
    "strength", cl::init(0), cl::cat(category),
    cl::desc("run a covering set: every combination of N attribute values "
             "(types and shape modes included) that the verifiers accept "
             "together, at least once; 2 (pairs) or 3 (triples: the full "
             "sweep of scripts/sweep.sh). 0: the whole product"));
static cl::opt<std::string> targetName(
    "target", cl::init("cpu"), cl::cat(category),
    cl::desc("the target that compiles and runs every combination: cpu, "
             "nvvm-emu, ascend (any target of mxq-run --list-targets that "
             "runs here)"));
static cl::opt<std::string> chipName(
    "chip", cl::init(""), cl::cat(category),
    cl::desc("the target's chip (as mxq-run --chip; default: the target's)"));
static cl::opt<bool> allowRefusals(
    "allow-refusals", cl::cat(category),
    cl::desc("count a combination the target refuses to compile or run "
             "(with its diagnostic) as refused, not as a failure, and list "
             "the refusals by their first line; a wrong byte is still a "
             "failure"));
static cl::opt<bool> listOnly(
    "list", cl::cat(category),
    cl::desc("count the combinations the verifiers accept, run nothing"));

namespace {

/// How an argument's data is made.
enum class Data { Source, Codes, Scales, Step, ZeroPoint };

struct Arg {
  Data data;
  std::string elt;   ///< element type of the argument
  Shape shape;       ///< concrete shape for one run
};

/// One function of the sweep: its text for the shapes of one run (static
/// functions have one run; dynamic ones several).
struct Case {
  std::string family, attrs; ///< e.g. "quantize", "f8E4M3FN floor nan ..."
  bool dynamic = false;
  /// Function text for a run (args of that run); with `dynamic`, the text
  /// of every run is the same.
  std::function<std::string(const std::vector<Arg> &)> text;
  std::vector<std::vector<Arg>> runs;
};

/// How a case's shapes are given: dynamic (run on aligned, ragged and
/// size-1 data), or static ragged, or static size-1.
std::string modeLabel(int mode) {
  return mode == 0 ? " (dynamic)" : mode == 1 ? " (static ragged)"
                                              : " (static size-1)";
}

/// The features of a case for pairwise coverage: "family:name=value" for
/// every attribute word, and the family with each word of its types and
/// shape mode.
std::vector<std::string> features(const Case &c) {
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef> words;
  llvm::StringRef(c.attrs).split(words, ' ', -1, false);
  bool types = false;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == ":") {
      types = true;
      continue;
    }
    if (!types && i + 2 < words.size() && words[i + 1] == "=") {
      out.push_back(c.family + ":" + words[i].str() + "=" +
                    words[i + 2].str());
      i += 2;
    } else if (types) {
      out.push_back(c.family + ":t" + std::to_string(i) + "=" +
                    words[i].str());
    }
  }
  return out;
}

std::string dims(const Shape &s, bool dynamic, size_t keepStatic = 0) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dyn = dynamic && i + keepStatic < s.size();
    out += (dyn ? std::string("?") : std::to_string(s[i])) + "x";
  }
  return out;
}

std::string tensor(const Shape &s, const std::string &elt, bool dynamic,
                   size_t keepStatic = 0) {
  return "tensor<" + dims(s, dynamic, keepStatic) + elt + ">";
}

::mxq::ScaleLayout layoutOf(const std::string &word) {
  auto l = mlir::mxq::symbolizeScaleLayout(word);
  return static_cast<::mxq::ScaleLayout>(*l);
}

/// Shapes of a run: aligned (whole blocks), ragged (a partial last block,
/// odd sizes elsewhere) and size 1, for `rank` with blocks of `block` along
/// `axis`.
std::vector<Shape> runShapes(int64_t rank, int64_t axis, int64_t block) {
  Shape aligned(rank, 4), ragged(rank, 3), one(rank, 1);
  aligned[axis] = 2 * block;
  ragged[axis] = block + 7;
  if (rank >= 2 && axis != rank - 1)
    ragged[rank - 1] = 5;
  return {aligned, ragged, one};
}

std::string attr(const std::string &name, const std::string &value) {
  return " " + name + " = " + value;
}

const std::string kScale = "f8E8M0FNU";
/// A scale type of quantize's rule `scale` and the words that go with it:
/// E8M0 for the MX rules; for `encode` and `decode`, E4M3 (NVFP4) or f32
/// (blockwise FP8) with each of the stored-scale words (`division` always
/// printed, so that every f32 case says so).
struct StoredScale {
  std::string type, words;
};
std::vector<StoredScale> scaleTypesOf(const std::string &scale) {
  if (scale != "encode" && scale != "decode")
    return {{kScale, ""}};
  return {{"f8E4M3FN", ""},
          {"f32", attr("division", "exact")},
          {"f32", " pow2" + attr("division", "exact")},
          {"f32", attr("amax_floor", "1.0e-04") + attr("division", "exact")},
          {"f32", attr("amax_floor", "1.0e-04") + " pow2" +
                      attr("division", "reciprocal")}};
}

/// A walk over the combinations: each has a number, its position in the
/// fixed order of enumerate(); only those `wants` names are built and given
/// to `take`. The whole product has millions of combinations, and a built
/// one (its text closure and runs) costs a kilobyte or more, so a walk that
/// built them all held gigabytes before it drew a sample of 25; numbering
/// costs a counter.
struct Walk {
  std::function<bool(size_t)> wants;
  std::function<void(size_t, Case &&)> take;
  /// The first position of each family the walk met, in order.
  std::vector<std::pair<std::string, size_t>> starts;
  size_t next = 0;

  /// The family of the combination at `pos`.
  const std::string &familyAt(size_t pos) const {
    auto it = std::upper_bound(
        starts.begin(), starts.end(), pos,
        [](size_t p, const auto &s) { return p < s.second; });
    return std::prev(it)->first;
  }
};

/// Walks every combination of the table for every family (not yet
/// verified), in the same order every time.
void enumerate(Walk &w) {
  const mlir::mxq::AttributeSpace &t = mlir::mxq::attributeSpace();
  std::set<std::string> want(families.begin(), families.end());
  auto wanted = [&](const char *f) {
    if (!want.empty() && !want.count(f))
      return false;
    w.starts.push_back({f, w.next});
    return true;
  };
  auto shapeModes = {0, 1, 2}; // dynamic, static ragged, static size-1

  if (wanted("quantize"))
    for (const auto &code : t.codeTypes)
      for (const auto &scale : t.scaleAlgorithms)
       for (const StoredScale &stored : scaleTypesOf(scale))
        for (const auto &inf : t.infPolicies)
          for (const auto &rnd : t.roundings)
            for (const auto &nan : t.nanElements)
             for (const auto &under : t.underflows)
             for (const auto &prod : t.products)
              for (const auto &layout : t.scaleLayouts)
                for (int64_t block : t.sweptBlocks)
                  for (int64_t rank = 1; rank <= 3; ++rank)
                    for (int64_t axis = 0; axis < rank; ++axis)
                      for (const auto &src : t.sourceTypes)
                        for (int mode : shapeModes) {
                          size_t pos = w.next++;
                          if (!w.wants(pos))
                            continue;
                          Case c;
                          c.family = "quantize";
                          std::string a = "axis = " + std::to_string(axis) +
                                          attr("block", std::to_string(block)) +
                                          attr("scale", scale) +
                                          attr("inf", inf) +
                                          attr("rounding", rnd) +
                                          attr("nan_element", nan) +
                                          attr("underflow", under) +
                                          attr("product", prod) +
                                          stored.words +
                                          attr("layout", layout);
                          c.dynamic = mode == 0;
                          std::vector<Shape> shapes = runShapes(rank, axis, block);
                          if (mode == 1)
                            shapes = {shapes[1]};
                          else if (mode == 2)
                            shapes = {shapes[2]};
                          c.attrs = a + " : " + src + " -> " + code +
                                    (stored.type == "f32" ? ", f32" : "") +
                                    modeLabel(mode);
                          for (const Shape &s : shapes)
                            c.runs.push_back({{Data::Source, src, s}});
                          bool dyn = c.dynamic;
                          ::mxq::ScaleLayout l = layoutOf(layout);
                          size_t keep = l == ::mxq::ScaleLayout::Pairs ? 1 : 0;
                          c.text = [=](const std::vector<Arg> &args) {
                            const Shape &x = args[0].shape;
                            Shape s;
                            std::string err;
                            if (!::mxq::scaleShape(x, axis, block, l, s, err))
                              s = x; // the verifier rejects it
                            std::string in = tensor(x, src, dyn);
                            std::string q = tensor(x, code, dyn);
                            std::string sc =
                                tensor(s, stored.type, dyn, keep);
                            return "func.func @f(%x: " + in + ") -> (" + q +
                                   ", " + sc + ") {\n  %q, %s = mxq.quantize "
                                   "%x " + a + " : " + in + " -> " + q + ", " +
                                   sc + "\n  return %q, %s : " + q + ", " + sc +
                                   "\n}\n";
                          };
                          w.take(pos, std::move(c));
                        }

  if (wanted("dequantize"))
    for (const auto &code : t.codeTypes)
     for (const auto &cast : t.resultCasts)
      for (const auto &layout : t.scaleLayouts)
        for (int64_t block : t.sweptBlocks)
          for (int64_t rank = 1; rank <= 3; ++rank)
            for (int64_t axis = 0; axis < rank; ++axis)
              for (const auto &out : t.sourceTypes)
                for (int mode : shapeModes) {
                  size_t pos = w.next++;
                  if (!w.wants(pos))
                    continue;
                  Case c;
                  c.family = "dequantize";
                  std::string a = "axis = " + std::to_string(axis) +
                                  attr("block", std::to_string(block)) +
                                  attr("layout", layout) +
                                  attr("cast", cast);
                  c.dynamic = mode == 0;
                  c.attrs = a + " : " + code + " -> " + out +
                            modeLabel(mode);
                  ::mxq::ScaleLayout l = layoutOf(layout);
                  std::vector<Shape> shapes = runShapes(rank, axis, block);
                  if (mode)
                    shapes = {shapes[mode]};
                  for (const Shape &x : shapes) {
                    Shape s;
                    std::string err;
                    if (!::mxq::scaleShape(x, axis, block, l, s, err))
                      s = x;
                    c.runs.push_back(
                        {{Data::Codes, code, x}, {Data::Scales, kScale, s}});
                  }
                  bool dyn = c.dynamic;
                  size_t keep = l == ::mxq::ScaleLayout::Pairs ? 1 : 0;
                  c.text = [=](const std::vector<Arg> &args) {
                    std::string q = tensor(args[0].shape, code, dyn);
                    std::string sc = tensor(args[1].shape, kScale, dyn, keep);
                    std::string y = tensor(args[0].shape, out, dyn);
                    return "func.func @f(%q: " + q + ", %s: " + sc + ") -> " +
                           y + " {\n  %y = mxq.dequantize %q, %s " + a + " : " +
                           q + ", " + sc + " -> " + y + "\n  return %y : " + y +
                           "\n}\n";
                  };
                  w.take(pos, std::move(c));
                }

  if (wanted("dual_quantize"))
    for (const auto &code : t.codeTypes)
      for (const auto &scale : t.scaleAlgorithms)
        for (const auto &inf : t.infPolicies)
          for (const auto &rnd : t.roundings)
            for (const auto &nan : t.nanElements)
             for (const auto &under : t.underflows)
              for (int64_t rank = 2; rank <= 3; ++rank)
                for (const auto &src : t.sourceTypes)
                  for (int mode : shapeModes) {
                    size_t pos = w.next++;
                    if (!w.wants(pos))
                      continue;
                    Case c;
                    c.family = "dual_quantize";
                    std::string a = "scale = " + scale + attr("inf", inf) +
                                    attr("rounding", rnd) +
                                    attr("nan_element", nan) +
                                    attr("underflow", under);
                    c.dynamic = mode == 0;
                    c.attrs = a + " : rank " + std::to_string(rank) + " " +
                              src + " -> " + code +
                              modeLabel(mode);
                    std::vector<Shape> shapes;
                    Shape b(rank - 2, 2);
                    for (auto mk : {std::pair<int64_t, int64_t>{64, 96},
                                    {37, 70}, {1, 1}}) {
                      Shape x = b;
                      x.push_back(mk.first);
                      x.push_back(mk.second);
                      shapes.push_back(x);
                    }
                    if (mode)
                      shapes = {shapes[mode]};
                    for (const Shape &x : shapes)
                      c.runs.push_back({{Data::Source, src, x}});
                    bool dyn = c.dynamic;
                    c.text = [=](const std::vector<Arg> &args) {
                      Shape x = args[0].shape, xt = x, s(x.begin(), x.end() - 2);
                      int64_t m = x[rank - 2], k = x[rank - 1];
                      std::swap(xt[rank - 2], xt[rank - 1]);
                      s.push_back(::mxq::swizzleBytes(m, ::mxq::ceilDiv(k, 32)));
                      std::string in = tensor(x, src, dyn);
                      std::string q0 = tensor(x, code, dyn);
                      std::string q1 = tensor(xt, code, dyn);
                      std::string sc = tensor(s, kScale, dyn);
                      std::string res = q0 + ", " + sc + ", " + q1 + ", " + sc;
                      return "func.func @f(%x: " + in + ") -> (" + res +
                             ") {\n  %q0, %s0, %q1, %s1 = mxq.dual_quantize %x " +
                             a + " : " + in + " -> " + res +
                             "\n  return %q0, %s0, %q1, %s1 : " + res + "\n}\n";
                    };
                    w.take(pos, std::move(c));
                  }

  if (wanted("two_level_quantize"))
    for (const auto &rnd : t.roundings)
      for (const auto &nan : t.nanElements)
       for (const auto &div : t.divDenormals)
        for (int smooth = 0; smooth < 2; ++smooth)
          for (int64_t rank = 1; rank <= 3; ++rank)
            for (const auto &src : t.sourceTypes)
              for (int mode : shapeModes) {
                size_t pos = w.next++;
                if (!w.wants(pos))
                  continue;
                Case c;
                c.family = "two_level_quantize";
                std::string a = attr("rounding", rnd) +
                                attr("nan_element", nan) +
                                attr("div_denormals", div);
                c.dynamic = mode == 0;
                c.attrs = std::string(smooth ? "smooth" : "") + a + " : rank " +
                          std::to_string(rank) + " " + src +
                          modeLabel(mode);
                std::vector<Shape> shapes;
                for (int64_t n : {1024, 530, 2}) {
                  Shape x(rank - 1, n == 2 ? 1 : 3);
                  x.push_back(n);
                  shapes.push_back(x);
                }
                if (mode)
                  shapes = {shapes[mode]};
                for (const Shape &x : shapes) {
                  std::vector<Arg> args{{Data::Source, src, x}};
                  if (smooth)
                    args.push_back({Data::Step, src, {x.back()}});
                  c.runs.push_back(args);
                }
                bool dyn = c.dynamic;
                c.text = [=](const std::vector<Arg> &args) {
                  Shape x = args[0].shape, l0 = x, l1 = x;
                  l0.back() = ::mxq::ceilDiv(x.back(), 512);
                  l1.back() = ::mxq::ceilDiv(x.back(), 64);
                  l1.push_back(2);
                  std::string in = tensor(x, src, dyn);
                  std::string sm = smooth ? tensor(args[1].shape, src, dyn) : "";
                  std::string res = tensor(x, "f4E2M1FN", dyn) + ", " +
                                    tensor(l0, "f32", dyn) + ", " +
                                    tensor(l1, kScale, dyn, 1);
                  return "func.func @f(%x: " + in +
                         (smooth ? ", %m: " + sm : "") + ") -> (" + res +
                         ") {\n  %y, %a, %b = mxq.two_level_quantize %x" +
                         (smooth ? " smooth %m" : "") + a + " : " + in +
                         (smooth ? ", " + sm : "") + " -> " + res +
                         "\n  return %y, %a, %b : " + res + "\n}\n";
                };
                w.take(pos, std::move(c));
              }

  for (const char *fam : {"fake_quant", "fake_quant_grad"}) {
    if (!wanted(fam))
      continue;
    bool grad = std::strcmp(fam, "fake_quant_grad") == 0;
    std::vector<std::string> formats =
        grad ? std::vector<std::string>{"f8E4M3FN"} : t.codeTypes;
    for (const auto &code : formats)
      for (int range = 0; range < 2; ++range)
        for (int64_t rank = 1; rank <= 3; ++rank)
          for (int64_t axis = -1; axis < rank; ++axis)
            for (const auto &src : t.sourceTypes)
              for (int mode : shapeModes) {
                size_t pos = w.next++;
                if (!w.wants(pos))
                  continue;
                Case c;
                c.family = fam;
                float max = code == "f8E5M2" ? 57344.0f : 448.0f;
                float lo = range ? -max / 4 : -max, hi = range ? max / 2 : max;
                auto f = [](float v) {
                  std::string s = std::to_string(v);
                  return s;
                };
                std::string a = (grad ? "" : "format = " + code + " ") +
                                "quant_min = " + f(lo) + " quant_max = " + f(hi) +
                                (axis >= 0 ? attr("axis", std::to_string(axis))
                                           : "");
                c.dynamic = mode == 0;
                c.attrs = a + " : rank " + std::to_string(rank) + " " + src +
                          modeLabel(mode);
                std::vector<Shape> shapes = {Shape(rank, 4), Shape(rank, 3),
                                             Shape(rank, 1)};
                shapes[0].back() = 64;
                shapes[1].back() = 37;
                if (mode)
                  shapes = {shapes[mode]};
                for (const Shape &x : shapes) {
                  Shape p{axis >= 0 ? x[axis] : 1};
                  std::vector<Arg> args;
                  if (grad)
                    args.push_back({Data::Source, src, x});
                  args.push_back({Data::Source, src, x});
                  args.push_back({Data::Step, "f32", p});
                  if (!grad)
                    args.push_back({Data::ZeroPoint, "f32", p});
                  c.runs.push_back(args);
                }
                bool dyn = c.dynamic;
                c.text = [=](const std::vector<Arg> &args) {
                  std::string in = tensor(args[0].shape, src, dyn);
                  std::string p = tensor(args.back().shape, "f32", dyn);
                  if (grad)
                    return "func.func @f(%g: " + in + ", %x: " + in +
                           ", %s: " + p + ") -> " + in +
                           " {\n  %y = mxq.fake_quant_grad %g, %x, %s " + a +
                           " : " + in + ", " + p + "\n  return %y : " + in +
                           "\n}\n";
                  return "func.func @f(%x: " + in + ", %s: " + p + ", %z: " +
                         p + ") -> " + in +
                         " {\n  %y = mxq.fake_quant %x, %s, %z " + a + " : " +
                         in + ", " + p + ", " + p + "\n  return %y : " + in +
                         "\n}\n";
                };
                w.take(pos, std::move(c));
              }
  }
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

/// Values over a wide exponent range with whole 32-blocks of edge cases:
/// zeros, a NaN, an infinity, subnormals, huge values, grid ties, values
/// just past the E4M3 maximum (the same recipe as the differential tests).
std::vector<float> edgeValues(std::mt19937_64 &rng, size_t n,
                              const std::string &elt) {
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> exp(-30, 30), kind(0, 11), coin(0, 1);
  std::vector<float> x(n);
  for (float &v : x)
    v = normal(rng) * std::ldexp(1.0f, exp(rng));
  float tiny = elt == "f32" ? std::ldexp(1.0f, -149)
                            : (elt == "f16" ? std::ldexp(1.0f, -24)
                                            : std::ldexp(1.0f, -133));
  float huge = elt == "f16" ? 60000.0f : 3.0e38f;
  for (size_t start = 0; start < n; start += 32) {
    size_t end = std::min(n, start + 32);
    int k = kind(rng);
    std::uniform_int_distribution<size_t> pick(start, end - 1);
    for (size_t i = start; i < end; ++i) {
      float sign = coin(rng) ? -1.0f : 1.0f;
      switch (k) {
      case 0: x[i] = sign * 0.0f; break;
      case 3: x[i] = tiny * float(int(rng() % 9) - 4); break;
      case 4: x[i] = huge * (float(rng() % 2001) / 1000.0f - 1.0f); break;
      case 5:
        x[i] = (float(int(rng() % 128) - 64) + 0.5f) *
               std::ldexp(1.0f, int(rng() % 16) - 8);
        break;
      case 6: x[i] = sign * 480.0f; break;
      default: break;
      }
    }
    if (k == 1)
      x[pick(rng)] = std::nanf("");
    if (k == 2)
      x[pick(rng)] = (coin(rng) ? -1 : 1) * INFINITY;
  }
  return x;
}

/// The .npy form of one argument.
::mxq::npy::Array makeArg(std::mt19937_64 &rng, const Arg &a) {
  ::mxq::npy::Array arr;
  arr.shape = a.shape;
  size_t n = ::mxq::ref::numElements(a.shape);
  auto put16 = [&](uint16_t bits) {
    arr.data.push_back(bits & 0xFF);
    arr.data.push_back(bits >> 8);
  };
  auto putValues = [&](const std::vector<float> &v, const std::string &elt) {
    for (float f : v) {
      if (elt == "f32") {
        uint8_t b[4];
        std::memcpy(b, &f, 4);
        arr.data.insert(arr.data.end(), b, b + 4);
      } else {
        put16(elt == "f16" ? ::mxq::ref::toF16Bits(f)
                           : ::mxq::ref::toBF16Bits(f));
      }
    }
    arr.descr = elt == "f32" ? "<f4" : (elt == "f16" ? "<f2" : "<u2");
  };
  switch (a.data) {
  case Data::Source:
    putValues(edgeValues(rng, n, a.elt), a.elt);
    break;
  case Data::Step: {
    std::vector<float> v(n);
    for (float &f : v)
      f = std::ldexp(1.0f, int(rng() % 12) - 6) *
          (0.5f + float(rng() % 1000) / 1000.0f);
    putValues(v, a.elt);
    break;
  }
  case Data::ZeroPoint: {
    const float choices[] = {0.0f, 0.5f, -1.25f};
    std::vector<float> v(n);
    for (float &f : v)
      f = choices[rng() % 3];
    putValues(v, a.elt);
    break;
  }
  case Data::Codes: {
    arr.descr = "|u1";
    unsigned width = a.elt == "f4E2M1FN" ? 4 : (a.elt[1] == '6' ? 6 : 8);
    std::vector<uint8_t> codes(n);
    for (uint8_t &c : codes)
      c = uint8_t(rng() & ((1u << width) - 1));
    if (width == 4) {
      arr.data = ::mxq::ref::packFP4(codes, a.shape);
      if (!arr.shape.empty())
        arr.shape.back() = ::mxq::ceilDiv(arr.shape.back(), 2);
    } else {
      arr.data = codes;
    }
    break;
  }
  case Data::Scales: {
    arr.descr = "|u1";
    arr.data.resize(n);
    for (uint8_t &s : arr.data) {
      unsigned r = rng() % 100;
      s = r < 5 ? 0xFF : r < 10 ? 0 : r < 15 ? 0xFE : uint8_t(100 + rng() % 50);
    }
    break;
  }
  }
  return arr;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mxq-sweep: every attribute combination the verifiers accept, "
      "compiled for a target (--target, the CPU by default) and compared "
      "with the reference\n");
  const mlir::mxq::AttributeSpace &table = mlir::mxq::attributeSpace();
  if (printTable) {
    auto list = [](const char *name, const std::vector<std::string> &v) {
      llvm::outs() << name << ": " << llvm::join(v, " ") << "\n";
    };
    list("scale", table.scaleAlgorithms);
    list("inf", table.infPolicies);
    list("rounding", table.roundings);
    list("nan_element", table.nanElements);
    list("layout", table.scaleLayouts);
    list("underflow", table.underflows);
    list("div_denormals", table.divDenormals);
    list("product", table.products);
    list("cast", table.resultCasts);
    list("codes", table.codeTypes);
    list("sources", table.sourceTypes);
    llvm::outs() << "block: " << table.smallBlock << " and multiples of "
                 << table.blockQuantum << " up to " << table.maxBlock
                 << "; swept:";
    for (int64_t b : table.sweptBlocks)
      llvm::outs() << " " << b;
    llvm::outs() << "\n";
    return 0;
  }
  for (const std::string &f : families)
    if (!llvm::is_contained(
            std::vector<std::string>{"quantize", "dequantize", "dual_quantize",
                                     "two_level_quantize", "fake_quant",
                                     "fake_quant_grad"},
            f)) {
      llvm::errs() << "mxq-sweep: error: unknown family '" << f
                   << "' (quantize, dequantize, dual_quantize, "
                      "two_level_quantize, fake_quant, fake_quant_grad)\n";
      return 1;
    }
  int64_t shardIndex = 0, shardCount = 1;
  if (!shard.empty()) {
    auto [i, n] = llvm::StringRef(shard).split('/');
    if (i.getAsInteger(10, shardIndex) || n.getAsInteger(10, shardCount) ||
        shardCount < 1 || shardIndex < 0 || shardIndex >= shardCount) {
      llvm::errs() << "mxq-sweep: error: --shard expects I/N with 0 <= I < N, "
                      "but it is '"
                   << shard << "'\n";
      return 1;
    }
  }
  if (strength != 0 && strength != 2 && strength != 3) {
    llvm::errs() << "mxq-sweep: error: --strength is 2 or 3 (or 0 for the "
                    "whole product), but it is "
                 << strength << "\n";
    return 1;
  }
  if (strength && sample) {
    llvm::errs() << "mxq-sweep: error: --strength and --sample exclude each "
                    "other\n";
    return 1;
  }
  if (sample < 0) {
    llvm::errs() << "mxq-sweep: error: --sample cannot be negative\n";
    return 1;
  }

  ::mxq::registerAllTargets();
  DialectRegistry registry;
  ::mxq::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  const ::mxq::Target *target = ::mxq::lookupTarget(targetName);
  if (!target) {
    llvm::errs() << "mxq-sweep: error: this build has no target '"
                 << targetName << "' (mxq-run --list-targets lists them)\n";
    return 1;
  }
  ::mxq::TargetOptions options;
  options.chip = chipName;
  {
    std::string why;
    if (!target->checkOptions(options, why)) {
      llvm::errs() << "mxq-sweep: error: " << why << "\n";
      return 1;
    }
    if (!listOnly && !target->canRun(why)) {
      llvm::errs() << "mxq-sweep: error: target '" << targetName
                   << "' cannot run here: " << why << "\n";
      return 1;
    }
  }
  // Number the combinations (and with --match keep those it matches);
  // `kept[idx]` is the position of the idx-th kept one. The draw shuffles
  // these numbers, not built combinations.
  std::vector<uint32_t> kept;
  Walk count;
  {
    std::optional<llvm::Regex> re;
    if (!matchAttrs.empty()) {
      re.emplace(matchAttrs);
      std::string why;
      if (!re->isValid(why)) {
        llvm::errs() << "mxq-sweep: error: --match: " << why << "\n";
        return 1;
      }
    }
    count.wants = [&](size_t) { return re.has_value(); };
    count.take = [&](size_t pos, Case &&c) {
      if (re->match(c.attrs))
        kept.push_back(pos);
    };
    enumerate(count);
    if (count.next > std::numeric_limits<uint32_t>::max()) {
      llvm::errs() << "mxq-sweep: error: " << count.next
                   << " combinations are more than this tool numbers\n";
      return 1;
    }
    if (!re) {
      kept.resize(count.next);
      std::iota(kept.begin(), kept.end(), 0);
    }
  }
  std::vector<uint32_t> order(kept.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 drawRng(seed);
  if (sample > 0 || strength)
    std::shuffle(order.begin(), order.end(), drawRng);

  int64_t accepted = 0, rejected = 0, runs = 0, failures = 0, refused = 0;
  std::map<std::string, int64_t> refusals; // first line of each diagnostic
  std::set<std::string> covered; // pairs of features run (with --pairwise)
  std::map<std::string, int64_t> perFamily;
  auto full = [&](const std::string &family) {
    return sample > 0 && perFamily[family] >= sample;
  };
  auto process = [&](size_t idx, const Case &c) {
    if (full(c.family))
      return; // this family has its share of the draw
    std::vector<std::string> pairs;
    if (strength) {
      // Only a case that covers a combination not yet covered is worth
      // running.
      std::vector<std::string> f = features(c);
      size_t n = f.size();
      auto consider = [&](const std::string &key) {
        if (!covered.count(key))
          pairs.push_back(key);
      };
      for (size_t a = 0; a < n; ++a)
        for (size_t b = a + 1; b < n; ++b) {
          if (strength == 2) {
            consider(f[a] + "|" + f[b]);
            continue;
          }
          for (size_t d = b + 1; d < n; ++d)
            consider(f[a] + "|" + f[b] + "|" + f[d]);
        }
      if (pairs.empty())
        return;
    }
    // The verifiers decide what is swept.
    std::string text = c.text(c.runs[0]);
    OwningOpRef<ModuleOp> module;
    {
      ScopedDiagnosticHandler quiet(&context,
                                    [](Diagnostic &) { return success(); });
      module = parseSourceString<ModuleOp>(text, &context);
    }
    if (!module) {
      ++rejected;
      return;
    }
    ++accepted;
    ++perFamily[c.family];
    covered.insert(pairs.begin(), pairs.end());
    if (listOnly)
      return;
    auto report = [&](const std::string &what) {
      ++failures;
      llvm::outs() << "FAIL " << c.family << " " << c.attrs << ": " << what
                   << "\n"
                   << text;
    };
    // A compile error: a failure, or with --allow-refusals a refusal.
    auto notCompiled = [&](const std::string &err) {
      if (!allowRefusals)
        return report("does not compile: " + err);
      ++refused;
      ++refusals[llvm::StringRef(err).split('\n').first.str()];
    };
    std::unique_ptr<::mxq::Executable> exe;
    if (c.dynamic) {
      std::string err;
      OwningOpRef<ModuleOp> copy = module->clone();
      exe = target->compile(*copy, "f", options, err);
      if (!exe) {
        notCompiled(err);
        return;
      }
    }
    for (size_t r = 0; r < c.runs.size(); ++r) {
      const std::vector<Arg> &args = c.runs[r];
      OwningOpRef<ModuleOp> runModule;
      if (!c.dynamic) {
        runModule = parseSourceString<ModuleOp>(c.text(args), &context);
        std::string err;
        OwningOpRef<ModuleOp> copy = runModule->clone();
        exe = target->compile(*copy, "f", options, err);
        if (!exe) {
          notCompiled(err);
          break;
        }
      }
      ModuleOp m = c.dynamic ? *module : *runModule;
      auto func = m.lookupSymbol<func::FuncOp>("f");
      std::mt19937_64 rng(seed * 1000003 + idx * 31 + r);
      std::vector<::mxq::RawTensor> raws(args.size());
      std::string err;
      bool ok = true;
      for (size_t i = 0; i < args.size() && ok; ++i) {
        ::mxq::npy::Array a = makeArg(rng, args[i]);
        auto type = cast<RankedTensorType>(func.getArgumentTypes()[i]);
        ok = ::mxq::tensorFromNpy(a, type, i, raws[i], err,
                                  args[i].shape.empty()
                                      ? -1
                                      : args[i].shape.back());
      }
      if (!ok) {
        report("the sweep made an input the runner rejects: " + err);
        break;
      }
      std::vector<::mxq::RawTensor> expected, got;
      if (!::mxq::interpret(func, raws, expected, err)) {
        report("the reference fails: " + err);
        break;
      }
      if (!exe->run(raws, got, err)) {
        // A target that lowers per shape at its first run (ascend) refuses
        // there.
        if (allowRefusals)
          notCompiled(err);
        else
          report("the compiled function fails: " + err);
        break;
      }
      ++runs;
      for (size_t i = 0; i < expected.size(); ++i) {
        ::mxq::npy::Array e = ::mxq::tensorToNpy(expected[i]);
        ::mxq::npy::Array g = ::mxq::tensorToNpy(got[i]);
        if (e.shape == g.shape && e.data == g.data)
          continue;
        std::string what = "result " + std::to_string(i) + " differs on " +
                           ::mxq::shapeToString(args[0].shape);
        if (e.shape != g.shape) {
          what += ": shapes " + ::mxq::shapeToString(g.shape) + " (compiled) " +
                  ::mxq::shapeToString(e.shape) + " (reference)";
        } else {
          size_t k = 0;
          while (e.data[k] == g.data[k])
            ++k;
          what += llvm::formatv(": first at byte {0}: compiled {1:x2}, "
                                "reference {2:x2}",
                                k, g.data[k], e.data[k])
                      .str();
        }
        report(what);
        break;
      }
    }
  };

  // Walk the draw in batches: build the next batch's combinations in one
  // walk, then run them in the draw's order.
  constexpr size_t kBatch = 8192;
  for (size_t cursor = 0; cursor < order.size();) {
    std::vector<uint32_t> batch; // indices into `kept`, in the draw's order
    while (cursor < order.size() && batch.size() < kBatch) {
      uint32_t idx = order[cursor++];
      if (int64_t(idx) % shardCount == shardIndex &&
          !full(count.familyAt(kept[idx])))
        batch.push_back(idx);
    }
    std::vector<uint32_t> positions;
    for (uint32_t idx : batch)
      positions.push_back(kept[idx]);
    llvm::sort(positions);
    std::map<size_t, Case> built;
    Walk w;
    w.wants = [&](size_t pos) {
      return std::binary_search(positions.begin(), positions.end(), pos);
    };
    w.take = [&](size_t pos, Case &&c) { built.emplace(pos, std::move(c)); };
    enumerate(w);
    for (uint32_t idx : batch)
      process(idx, built.at(kept[idx]));
  }
  llvm::outs() << "mxq-sweep: " << accepted << " combinations accepted by the "
               << "verifiers (" << rejected << " rejected)";
  if (strength)
    llvm::outs() << ", covering " << covered.size() << " combinations of "
                 << strength << " values";
  for (auto &[f, n] : perFamily)
    llvm::outs() << ", " << f << " " << n;
  llvm::outs() << "\n";
  if (listOnly)
    return 0;
  if (allowRefusals) {
    llvm::outs() << refused << " refused by the target";
    for (auto &[why, n] : refusals)
      llvm::outs() << "\n  " << n << "x " << why;
    llvm::outs() << "\n";
  }
  llvm::outs() << runs << " runs on " << targetName
               << (chipName.empty() ? "" : " (chip " + chipName + ")")
               << " compared bit for bit, " << failures
               << " failures\n";
  return failures ? 1 : 0;
}
