//===- Interpreter.cpp - run mxq functions on the C++ reference -----------===//
#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Reference/Reference.h"
#include "mxq/Support/ElementTypes.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
namespace dialect = mlir::mxq;

namespace mxq {

namespace {
/// The interpreter's own form of a tensor: f32/f16/bf16 elements as exact
/// fp32 `values`; MX codes and E8M0 scales as one byte per element in
/// `bytes` (what the reference functions take).
struct Buffer {
  std::vector<int64_t> shape;
  mlir::Type elementType;
  std::vector<float> values;
  std::vector<uint8_t> bytes;
};
} // namespace

static std::string str(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static std::string shapeStr(const std::vector<int64_t> &shape) {
  return shapeToString(shape);
}


static bool isByteType(Type t) {
  return dialect::getElementFormat(t).has_value() || isa<Float8E8M0FNUType>(t);
}

/// The .npy dtype that carries tensors of `t` (see README), or "" for a type
/// the interpreter does not move.
static std::string npyDescrFor(Type t) {
  // The interpreter moves the wide float types and the one-byte codes and
  // scales (see ElementTypes.h for the dtypes).
  if (!t.isF32() && !t.isF16() && !t.isBF16() && !isByteType(t))
    return "";
  const ElementTypeInfo *info = elementTypeInfo(str(t));
  return info ? info->npyDescr : "";
}

/// Checks `array` against `type` and fills `buffer` (its values only with
/// `withValues`: a check alone needs no copy of the data).
static bool bufferFromNpy(const npy::Array &array, RankedTensorType type,
                          unsigned index, Buffer &buffer, std::string &error,
                          int64_t fp4Length, bool withValues = true) {
  Type elt = type.getElementType();
  std::string expected = npyDescrFor(elt);
  std::string what = "input " + std::to_string(index);
  if (expected.empty()) {
    error =
        what + ": arguments of element type " + str(elt) + " are not supported";
    return false;
  }
  if (array.descr != expected) {
    error = what + ": expected dtype " + expected + " for " + str(type) +
            ", but the file has " + array.descr;
    return false;
  }
  if (array.shape.size() != static_cast<size_t>(type.getRank())) {
    error = what + ": expected rank " + std::to_string(type.getRank()) +
            " for " + str(type) + ", but the file has shape " +
            shapeStr(array.shape);
    return false;
  }
  bool fp4 = isa<Float4E2M1FNType>(elt);
  buffer.shape = array.shape;
  int64_t rank = type.getRank();
  if (fp4 && rank > 0) {
    // Packed two per byte: the file's last dimension is ceil(n / 2).
    int64_t bytes = array.shape.back();
    int64_t n = type.getDimSize(rank - 1);
    if (ShapedType::isDynamic(n))
      n = fp4Length >= 0 ? fp4Length : 2 * bytes;
    if (ceilDiv(n, 2) != bytes) {
      error =
          what + ": " + std::to_string(n) + " FP4 codes along the last " +
          "axis (" +
          (!type.isDynamicDim(rank - 1) ? "from " + str(type)
                                        : std::string("from --fp4-length")) +
          ") are packed into " + std::to_string(ceilDiv(n, 2)) +
          " bytes, but the file has " + std::to_string(bytes);
      return false;
    }
    buffer.shape.back() = n;
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t want = type.getDimSize(d);
    if (!ShapedType::isDynamic(want) && want != buffer.shape[d]) {
      error = what + ": dimension " + std::to_string(d) + " is " +
              std::to_string(want) + " in " + str(type) + ", but " +
              std::to_string(buffer.shape[d]) + " in the file";
      return false;
    }
  }
  buffer.elementType = elt;
  size_t n = static_cast<size_t>(ref::numElements(buffer.shape));
  buffer.values.clear();
  buffer.bytes.clear();
  if (!withValues)
    return true;
  if (fp4) {
    buffer.bytes = ref::unpackFP4(array.data, buffer.shape);
  } else if (isByteType(elt)) {
    buffer.bytes = array.data;
  } else {
    buffer.values.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (elt.isF32()) {
        std::memcpy(&buffer.values[i], &array.data[4 * i], 4);
      } else {
        uint16_t bits =
            uint16_t(array.data[2 * i]) | uint16_t(array.data[2 * i + 1] << 8);
        buffer.values[i] =
            elt.isF16() ? ref::fromF16Bits(bits) : ref::fromBF16Bits(bits);
      }
    }
  }
  return true;
}

/// The .npy form of a tensor in memory. The memory form is the .npy data
/// (FP4 packed two per byte along the last axis in both,
/// mxq-pack-fp4-memory); `shape` is logical (FP4's last dimension counts
/// codes, the file's bytes). FP6 codes keep their six bits.
static npy::Array rawToNpy(Type elt, const std::vector<int64_t> &shape,
                           std::vector<uint8_t> data) {
  npy::Array a;
  a.descr = npyDescrFor(elt);
  a.shape = shape;
  a.data = std::move(data);
  if (isa<Float4E2M1FNType>(elt)) {
    if (!a.shape.empty())
      a.shape.back() = ceilDiv(a.shape.back(), 2);
    return a;
  }
  if (isByteType(elt)) {
    unsigned width = elt.getIntOrFloatBitWidth();
    for (uint8_t &byte : a.data)
      byte &= uint8_t((1u << width) - 1);
  }
  return a;
}

static npy::Array bufferToNpy(const Buffer &buffer) {
  Type elt = buffer.elementType;
  if (isa<Float4E2M1FNType>(elt))
    return rawToNpy(elt, buffer.shape,
                    ref::packFP4(buffer.bytes, buffer.shape));
  if (isByteType(elt))
    return rawToNpy(elt, buffer.shape, buffer.bytes);
  std::vector<uint8_t> data;
  for (float v : buffer.values) {
    uint32_t b = elt.isF32()
                     ? ref::bitsOf(v)
                     : (elt.isF16() ? ref::toF16Bits(v) : ref::toBF16Bits(v));
    for (unsigned i = 0; i < (elt.isF32() ? 4u : 2u); ++i)
      data.push_back(uint8_t(b >> (8 * i)));
  }
  return rawToNpy(elt, buffer.shape, data);
}

bool tensorFromNpy(const npy::Array &array, RankedTensorType type,
                   unsigned index, RawTensor &tensor, std::string &error,
                   int64_t fp4Length) {
  Buffer checked;
  if (!bufferFromNpy(array, type, index, checked, error, fp4Length,
                     /*withValues=*/false))
    return false;
  tensor.shape = checked.shape;
  tensor.elementType = type.getElementType();
  tensor.data = array.data;
  return true;
}

bool tensorFromNpy(npy::Array &&array, RankedTensorType type, unsigned index,
                   RawTensor &tensor, std::string &error, int64_t fp4Length) {
  Buffer checked;
  if (!bufferFromNpy(array, type, index, checked, error, fp4Length,
                     /*withValues=*/false))
    return false;
  tensor.shape = checked.shape;
  tensor.elementType = type.getElementType();
  // The file's bytes are the tensor's (FP4 packed in both): no copy.
  tensor.data = std::move(array.data);
  return true;
}

npy::Array tensorToNpy(const RawTensor &tensor) {
  return rawToNpy(tensor.elementType, tensor.shape, tensor.data);
}

npy::Array tensorToNpy(RawTensor &&tensor) {
  return rawToNpy(tensor.elementType, tensor.shape, std::move(tensor.data));
}

bool writeNpy(const std::string &path, const ResultView &result,
              std::string &error) {
  Type elt = result.elementType;
  std::vector<int64_t> shape(result.shape.begin(), result.shape.end());
  if (isByteType(elt) && elt.getIntOrFloatBitWidth() < 8 &&
      !isa<Float4E2M1FNType>(elt))
    return npy::write(path,
                      rawToNpy(elt, shape,
                               std::vector<uint8_t>(result.bytes.begin(),
                                                    result.bytes.end())),
                      error);
  // The same form as rawToNpy's without its copy: FP4's file shape counts
  // bytes along the last axis.
  if (isa<Float4E2M1FNType>(elt) && !shape.empty())
    shape.back() = ceilDiv(shape.back(), 2);
  return npy::write(path, npyDescrFor(elt), shape, result.bytes.data(),
                    result.bytes.size(), error);
}

namespace {
class Interpreter {
public:
  std::string error;

  bool run(func::FuncOp func, const std::vector<Buffer> &args,
           std::vector<Buffer> &results) {
    Block &body = func.getBody().front();
    for (auto [arg, buf] : llvm::zip(body.getArguments(), args))
      env[arg] = buf;
    for (Operation &op : body) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          results.push_back(env[v]);
        return true;
      }
      if (!execute(&op))
        return false;
    }
    return fail(func, "has no return");
  }

private:
  llvm::DenseMap<Value, Buffer> env;

  bool fail(Operation *op, const std::string &why) {
    error = "'" + op->getName().getStringRef().str() + "' " + why;
    return false;
  }

  /// Binds `result` after checking its run-time shape against its type.
  bool bind(Operation *op, Value result, Buffer buffer) {
    auto type = cast<RankedTensorType>(result.getType());
    buffer.elementType = type.getElementType();
    bool ok = static_cast<int64_t>(buffer.shape.size()) == type.getRank();
    for (int64_t d = 0; ok && d < type.getRank(); ++d)
      ok = type.isDynamicDim(d) || type.getDimSize(d) == buffer.shape[d];
    if (!ok)
      return fail(op,
                  "result #" +
                      std::to_string(cast<OpResult>(result).getResultNumber()) +
                      " has shape " + shapeStr(buffer.shape) +
                      " at run time, which does not fit its type " + str(type));
    env[result] = std::move(buffer);
    return true;
  }

  Buffer codes(const std::vector<uint8_t> &bytes, const ref::Shape &shape) {
    Buffer b;
    b.shape = shape;
    b.bytes = bytes;
    return b;
  }
  Buffer floats(const std::vector<float> &values, const ref::Shape &shape) {
    Buffer b;
    b.shape = shape;
    b.values = values;
    return b;
  }

  /// The scale and element policies shared by quantize and dual_quantize.
  template <typename OpTy>
  static ref::QuantizeOptions policiesOf(OpTy op, Type codeType) {
    ref::QuantizeOptions o;
    o.format = *dialect::getElementFormat(codeType);
    o.algorithm = dialect::toSupport(op.getScaleAlgorithm());
    o.inf = dialect::toSupport(op.getInfPolicy());
    o.rounding = dialect::toSupport(op.getRounding());
    o.nanElement = dialect::toSupport(op.getNanElement());
    o.underflow = dialect::toSupport(op.getUnderflow());
    return o;
  }

  bool execute(Operation *op) {
    return llvm::TypeSwitch<Operation *, bool>(op)
        .Case([&](dialect::QuantizeOp q) {
          const Buffer &in = env[q.getInput()];
          ref::QuantizeOptions o =
              policiesOf(q, q.getCodes().getType().getElementType());
          o.axis = q.getAxis();
          o.blockSize = q.getBlockSize();
          o.layout = dialect::toSupport(q.getScaleLayout());
          o.product = dialect::toSupport(q.getProduct());
          if (!outerValues(op, q.getOuter(), in.shape, q.getAxis(), o.outer))
            return false;
          o.f32Scales = q.getScales().getType().getElementType().isF32();
          if (FloatAttr floor = q.getAmaxFloorAttr())
            o.amaxFloor = floor.getValue().convertToFloat();
          o.pow2 = q.getPow2();
          o.division = dialect::toSupport(q.getDivision());
          o.source = dialect::getSourceType(in.elementType);
          ref::Quantized r = ref::quantize(in.values, in.shape, o);
          return bind(op, q.getCodes(), codes(r.codes, r.codesShape)) &&
                 bind(op, q.getScales(),
                      o.f32Scales ? floats(r.scaleValues, r.scalesShape)
                                  : codes(r.scales, r.scalesShape));
        })
        .Case([&](dialect::DequantizeOp d) {
          const Buffer &c = env[d.getCodes()], &s = env[d.getScales()];
          std::vector<int64_t> want;
          std::string err;
          scaleShape(c.shape, d.getAxis(), d.getBlockSize(),
                     dialect::toSupport(d.getScaleLayout()), want, err);
          if (want != s.shape)
            return fail(op, "needs scales of shape " + shapeStr(want) +
                                " for codes of shape " + shapeStr(c.shape) +
                                ", but they have shape " + shapeStr(s.shape));
          std::vector<float> y;
          if (d.getScales().getType().getElementType().isF32()) {
            y = ref::dequantizeF32Scales(
                c.bytes, c.shape, s.values, d.getAxis(), d.getBlockSize(),
                *dialect::getElementFormat(c.elementType));
          } else if (auto rule = d.getScaleAlgorithm()) {
            std::vector<float> outer;
            if (!outerValues(op, d.getOuter(), c.shape, d.getAxis(), outer))
              return false;
            y = ref::dequantizeNVFP4(c.bytes, c.shape, s.bytes, d.getAxis(),
                                     dialect::toSupport(d.getScaleLayout()),
                                     dialect::toSupport(*rule), outer);
          } else {
            y = ref::dequantize(c.bytes, c.shape, s.bytes, d.getAxis(),
                                d.getBlockSize(),
                                dialect::toSupport(d.getScaleLayout()),
                                *dialect::getElementFormat(c.elementType));
          }
          SourceType t = dialect::getSourceType(d.getResult().getType().getElementType());
          bool saturate = d.getCast() == dialect::ResultCast::saturate;
          for (float &v : y)
            v = saturate ? ref::saturateToSource(t, v)
                         : ref::roundToSource(t, v);
          return bind(op, d.getResult(), floats(y, c.shape));
        })
        .Case([&](dialect::ConvertScaleLayoutOp c) {
          const Buffer &s = env[c.getScales()], &codes = env[c.getCodes()];
          std::vector<int64_t> want;
          std::string err;
          scaleShape(codes.shape, c.getAxis(), c.getBlockSize(),
                     dialect::toSupport(c.getFrom()), want, err);
          if (want != s.shape)
            return fail(op, "needs scales of shape " + shapeStr(want) +
                                " for codes of shape " + shapeStr(codes.shape) +
                                ", but they have shape " + shapeStr(s.shape));
          ref::Shape shape;
          std::vector<uint8_t> bytes = ref::convertScaleLayout(
              s.bytes, codes.shape, c.getAxis(), c.getBlockSize(),
              dialect::toSupport(c.getFrom()), dialect::toSupport(c.getTo()),
              shape);
          return bind(op, c.getResult(), this->codes(bytes, shape));
        })
        .Case([&](dialect::DualQuantizeOp d) {
          const Buffer &in = env[d.getInput()];
          ref::QuantizeOptions o =
              policiesOf(d, d.getCodes0().getType().getElementType());
          ref::DualQuantized r = ref::dualQuantize(in.values, in.shape, o);
          return bind(op, d.getCodes0(),
                      codes(r.rows.codes, r.rows.codesShape)) &&
                 bind(op, d.getScales0(),
                      codes(r.rows.scales, r.rows.scalesShape)) &&
                 bind(op, d.getCodes1(),
                      codes(r.columns.codes, r.columns.codesShape)) &&
                 bind(op, d.getScales1(),
                      codes(r.columns.scales, r.columns.scalesShape));
        })
        .Case([&](dialect::TwoLevelQuantizeOp t) {
          const Buffer &in = env[t.getInput()];
          if (in.shape.back() % 2 != 0)
            return fail(op, "needs an even last dimension, but the input has "
                            "shape " +
                                shapeStr(in.shape));
          const std::vector<float> *smooth = nullptr;
          if (t.getSmooth()) {
            const Buffer &s = env[t.getSmooth()];
            if (s.shape != std::vector<int64_t>{in.shape.back()})
              return fail(op, "needs smooth of shape [" +
                                  std::to_string(in.shape.back()) +
                                  "], but it has shape " + shapeStr(s.shape));
            smooth = &s.values;
          }
          ref::TwoLevelQuantized r = ref::twoLevelQuantize(
              in.values, in.shape, dialect::getSourceType(in.elementType), smooth,
              dialect::toSupport(t.getRounding()),
              dialect::toSupport(t.getNanElement()),
              dialect::toSupport(t.getDivDenormals()));
          return bind(op, t.getY(), codes(r.codes, in.shape)) &&
                 bind(op, t.getLevel0Scales(),
                      floats(r.level0, r.level0Shape)) &&
                 bind(op, t.getLevel1Scales(), codes(r.level1, r.level1Shape));
        })
        .Case([&](dialect::FakeQuantOp f) {
          const Buffer &in = env[f.getInput()];
          const Buffer &s = env[f.getStepSize()], &z = env[f.getZeroPoint()];
          if (!checkParams(op, in, {&s, &z}, f.getAxis()))
            return false;
          std::vector<float> y = ref::fakeQuant(
              in.values, in.shape, dialect::getSourceType(in.elementType), s.values,
              z.values, *dialect::getElementFormat(f.getFormat()),
              f.getQuantMin().convertToFloat(),
              f.getQuantMax().convertToFloat(), f.getAxis());
          return bind(op, f.getResult(), floats(y, in.shape));
        })
        .Case([&](dialect::FakeQuantGradOp f) {
          const Buffer &g = env[f.getGrad()], &in = env[f.getInput()];
          const Buffer &s = env[f.getStepSize()];
          if (g.shape != in.shape)
            return fail(op, "needs grad and input of one shape, but they are " +
                                shapeStr(g.shape) + " and " +
                                shapeStr(in.shape));
          if (!checkParams(op, in, {&s}, f.getAxis()))
            return false;
          std::vector<float> y =
              ref::fakeQuantGrad(g.values, in.values, in.shape, s.values,
                                 f.getQuantMin().convertToFloat(),
                                 f.getQuantMax().convertToFloat(), f.getAxis());
          return bind(op, f.getResult(), floats(y, in.shape));
        })
        .Default([&](Operation *other) {
          return fail(other, "cannot be run on the reference: it interprets "
                             "mxq ops and func.return only");
        });
  }

  /// The values of an NVFP4 outer scale (none: empty), rank 0 or one per
  /// line of `data` (its shape without `axis`).
  bool outerValues(Operation *op, Value outer, const std::vector<int64_t> &data,
                   int64_t axis, std::vector<float> &values) {
    if (!outer)
      return true;
    const Buffer &t = env[outer];
    std::vector<int64_t> line(data);
    line.erase(line.begin() + axis);
    if (!t.shape.empty() && t.shape != line)
      return fail(op, "needs an outer scale of shape [] or " + shapeStr(line) +
                          " for data of shape " + shapeStr(data) +
                          ", but it has shape " + shapeStr(t.shape));
    values = t.values;
    return true;
  }

  bool checkParams(Operation *op, const Buffer &in,
                   std::initializer_list<const Buffer *> params,
                   std::optional<int64_t> axis) {
    int64_t want = axis ? in.shape[*axis] : 1;
    for (const Buffer *p : params)
      if (p->shape != std::vector<int64_t>{want})
        return fail(op, "needs step_size and zero_point of shape [" +
                            std::to_string(want) + "], but one has shape " +
                            shapeStr(p->shape));
    return true;
  }
};
} // namespace

bool checkInputs(func::FuncOp func, const std::vector<RawTensor> &inputs,
                 std::string &error) {
  auto types = func.getArgumentTypes();
  if (types.size() != inputs.size()) {
    error = "@" + func.getSymName().str() + " takes " +
            std::to_string(types.size()) + " arguments, but " +
            std::to_string(inputs.size()) + " were given";
    return false;
  }
  if (func.isExternal())
    return true;
  MLIRContext *ctx = func.getContext();
  OwningOpRef<func::FuncOp> copy = cast<func::FuncOp>(func->clone());
  SmallVector<Type> specialised;
  for (auto [i, t] : llvm::enumerate(types)) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    if (!ranked || ranked.getRank() != int64_t(inputs[i].shape.size())) {
      error = "input " + std::to_string(i) + " does not fit " + str(t);
      return false;
    }
    specialised.push_back(RankedTensorType::get(
        inputs[i].shape, ranked.getElementType(), ranked.getEncoding()));
  }
  // fake_quant's result (typed like its operand) follows that operand's
  // new type; the others keep theirs (verifiers accept a dynamic result of
  // a static input). Only fake_quant's: quantize's f32 scales and
  // dequantize's f32 result may be typed like an operand of another shape.
  llvm::DenseMap<Operation *, SmallVector<int>> follows;
  copy->walk([&](Operation *op) {
    if (!isa<dialect::FakeQuantOp, dialect::FakeQuantGradOp>(op))
      return;
    SmallVector<int> same;
    for (Value r : op->getResults()) {
      int found = -1;
      for (auto [k, o] : llvm::enumerate(op->getOperands()))
        if (o.getType() == r.getType() && found < 0)
          found = int(k);
      same.push_back(found);
    }
    follows[op] = same;
  });
  for (auto [arg, t] :
       llvm::zip(copy->getBody().front().getArguments(), specialised))
    arg.setType(t);
  copy->walk([&](Operation *op) {
    auto it = follows.find(op);
    if (it == follows.end())
      return;
    for (auto [r, k] : llvm::zip(op->getResults(), it->second))
      if (k >= 0)
        r.setType(op->getOperand(k).getType());
  });
  copy->setType(FunctionType::get(ctx, specialised, copy->getResultTypes()));
  std::string message;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
    if (message.empty() && d.getSeverity() == DiagnosticSeverity::Error)
      message = d.str();
    return success();
  });
  WalkResult walk = copy->walk([&](Operation *op) {
    if (!isa<dialect::MXQDialect>(op->getDialect()))
      return WalkResult::advance();
    if (failed(mlir::verify(op, /*verifyRecursively=*/false)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (!walk.wasInterrupted())
    return true;
  std::string shapes;
  for (const RawTensor &t : inputs)
    shapes += (shapes.empty() ? "" : ", ") + shapeStr(t.shape);
  error = "inputs of shapes " + shapes + " do not fit @" +
          func.getSymName().str() + ": " + message;
  return false;
}

bool interpret(func::FuncOp func, const std::vector<RawTensor> &args,
               std::vector<RawTensor> &results, std::string &error) {
  if (func.isExternal()) {
    error = "@" + func.getSymName().str() + " has no body";
    return false;
  }
  auto types = func.getArgumentTypes();
  if (types.size() != args.size()) {
    error = "@" + func.getSymName().str() + " takes " +
            std::to_string(types.size()) + " arguments, but " +
            std::to_string(args.size()) + " were given";
    return false;
  }
  // Each argument through its .npy form: the one place that decodes memory
  // into the reference's values (and checks it against the type).
  std::vector<Buffer> buffers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    auto type = dyn_cast<RankedTensorType>(types[i]);
    if (!type) {
      error = "input " + std::to_string(i) +
              ": argument type is not a "
              "ranked tensor";
      return false;
    }
    const RawTensor &t = args[i];
    if (!bufferFromNpy(tensorToNpy(t), type, i, buffers[i], error,
                       t.shape.empty() ? -1 : t.shape.back()))
      return false;
  }
  Interpreter interpreter;
  std::vector<Buffer> out;
  if (!interpreter.run(func, buffers, out)) {
    error = interpreter.error;
    return false;
  }
  results.clear();
  for (const Buffer &b : out) {
    npy::Array a = bufferToNpy(b);
    results.push_back({b.shape, b.elementType, std::move(a.data)});
  }
  return true;
}

} // namespace mxq
