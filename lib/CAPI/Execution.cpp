//===- Execution.cpp - C API: compile and run a function ------------------===//
#include "mxq-c/Execution.h"
#include "mxq/Execution/Execution.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

#include <cstring>

using namespace mlir;

namespace {
struct ExecutableState {
  std::unique_ptr<::mxq::CompiledFunction> function;
  std::vector<::mxq::RawTensor> results;
};

ExecutableState *unwrapExe(MxqExecutable exe) {
  return static_cast<ExecutableState *>(exe.ptr);
}

MlirLogicalResult fail(const std::string &message, MlirStringCallback onError,
                       void *userData) {
  if (onError)
    onError(MlirStringRef{message.data(), message.size()}, userData);
  return mlirLogicalResultFailure();
}

/// Visits every element of a strided `shape` in row-major order, passing the
/// element's offset (in elements) from the base.
template <typename F>
void forEachOffset(const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &strides, F &&f) {
  for (int64_t d : shape)
    if (d == 0)
      return;
  std::vector<int64_t> index(shape.size(), 0);
  while (true) {
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      offset += index[d] * strides[d];
    f(offset);
    size_t d = shape.size();
    while (d > 0) {
      --d;
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (shape.empty())
      return;
  }
}

bool readBuffer(const MxqBuffer &b, std::vector<int64_t> &shape,
                std::vector<int64_t> &strides, std::string &error,
                const std::string &what) {
  if (b.rank < 0 || (b.rank > 0 && !b.shape)) {
    error = what + ": a rank of " + std::to_string(b.rank) +
            (b.rank < 0 ? " is negative" : " needs a shape");
    return false;
  }
  shape.assign(b.shape, b.shape + b.rank);
  for (int64_t d : shape)
    if (d < 0) {
      error = what + ": dimension " + std::to_string(d) + " is negative";
      return false;
    }
  strides.assign(b.rank, 1);
  if (b.strides)
    strides.assign(b.strides, b.strides + b.rank);
  else
    for (intptr_t d = b.rank - 1; d > 0; --d)
      strides[d - 1] = strides[d] * shape[d];
  if (!b.data) {
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    if (count != 0) {
      error = what + ": the data pointer is null";
      return false;
    }
  }
  return true;
}
} // namespace

MxqCompileOptions mxqCompileOptionsGetDefault(void) {
  return MxqCompileOptions{MlirStringRef{nullptr, 0}, 0, nullptr, 0};
}

void mxqGetTargetNames(MlirStringCallback callback, void *userData) {
  std::string names = ::mxq::targetNames();
  callback(MlirStringRef{names.data(), names.size()}, userData);
}

MlirLogicalResult mxqCompile(MlirModule module, MlirStringRef entry,
                             MlirStringRef target, MxqCompileOptions options,
                             MxqExecutable *result, MlirStringCallback onError,
                             void *userData) {
  result->ptr = nullptr;
  if (mlirModuleIsNull(module))
    return fail("mxqCompile: the module is null", onError, userData);
  ::mxq::TargetOptions opts;
  if (options.chip.data)
    opts.chip = std::string(options.chip.data, options.chip.length);
  opts.isaVersion = options.isaVersion;
  if (options.numTileSizes < 0 ||
      (options.numTileSizes > 0 && !options.tileSizes))
    return fail("mxqCompile: tile sizes given without data", onError,
                userData);
  opts.tileSizes.assign(options.tileSizes,
                        options.tileSizes + options.numTileSizes);
  ModuleOp op = unwrap(module);
  ::mxq::DiagnosticCollector diagnostics(op.getContext());
  std::string error;
  auto function = ::mxq::CompiledFunction::compile(
      op, unwrap(entry), unwrap(target), opts, error);
  if (!function) {
    std::string text = diagnostics.take();
    return fail(text.empty() ? error : error + "\n" + text, onError, userData);
  }
  auto *state = new ExecutableState();
  state->function = std::move(function);
  result->ptr = state;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mxqExecutableRun(MxqExecutable executable,
                                   const MxqBuffer *inputs, intptr_t numInputs,
                                   MlirStringCallback onError, void *userData) {
  ExecutableState *state = unwrapExe(executable);
  if (!state)
    return fail("mxqExecutableRun: the executable is null", onError, userData);
  if (numInputs < 0 || (numInputs > 0 && !inputs))
    return fail("mxqExecutableRun: no input buffers", onError, userData);
  std::vector<::mxq::RawTensor> raw(numInputs);
  std::string error;
  for (intptr_t i = 0; i < numInputs; ++i) {
    const MxqBuffer &b = inputs[i];
    std::string what = "input " + std::to_string(i);
    std::vector<int64_t> shape, strides;
    if (!readBuffer(b, shape, strides, error, what))
      return fail(error, onError, userData);
    if (mlirTypeIsNull(b.elementType))
      return fail(what + ": the element type is null", onError, userData);
    Type type = unwrap(b.elementType);
    unsigned width = ::mxq::bytesPerElement(type);
    if (width == 0) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << what << ": mxq does not take elements of type " << type;
      return fail(s, onError, userData);
    }
    raw[i].shape = shape;
    raw[i].elementType = type;
    if (isa<Float4E2M1FNType>(type)) {
      // Packed two per byte along the last axis: whole rows of bytes.
      if (b.strides)
        return fail(what + ": FP4 codes are packed two per byte along the "
                           "last axis; give them contiguous (null strides)",
                    onError, userData);
      raw[i].data.assign(static_cast<const uint8_t *>(b.data),
                         static_cast<const uint8_t *>(b.data) +
                             ::mxq::storageBytes(type, shape));
      continue;
    }
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    raw[i].data.resize(count * width);
    uint8_t *out = raw[i].data.data();
    const uint8_t *base = static_cast<const uint8_t *>(b.data);
    forEachOffset(shape, strides, [&](int64_t offset) {
      std::memcpy(out, base + offset * int64_t(width), width);
      out += width;
    });
  }
  state->results.clear();
  if (!state->function->run(raw, state->results, error))
    return fail(error, onError, userData);
  return mlirLogicalResultSuccess();
}

intptr_t mxqExecutableGetNumResults(MxqExecutable executable) {
  ExecutableState *state = unwrapExe(executable);
  return state ? state->results.size() : 0;
}

intptr_t mxqExecutableGetResultRank(MxqExecutable executable, intptr_t index) {
  ExecutableState *state = unwrapExe(executable);
  if (!state || index < 0 || size_t(index) >= state->results.size())
    return -1;
  return state->results[index].shape.size();
}

int64_t mxqExecutableGetResultDim(MxqExecutable executable, intptr_t index,
                                  intptr_t dim) {
  intptr_t rank = mxqExecutableGetResultRank(executable, index);
  if (rank < 0 || dim < 0 || dim >= rank)
    return -1;
  return unwrapExe(executable)->results[index].shape[dim];
}

MlirType mxqExecutableGetResultElementType(MxqExecutable executable,
                                           intptr_t index) {
  if (mxqExecutableGetResultRank(executable, index) < 0)
    return MlirType{nullptr};
  return wrap(unwrapExe(executable)->results[index].elementType);
}

MlirLogicalResult mxqExecutableCopyResult(MxqExecutable executable,
                                          intptr_t index, MxqBuffer destination,
                                          MlirStringCallback onError,
                                          void *userData) {
  if (mxqExecutableGetResultRank(executable, index) < 0)
    return fail("mxqExecutableCopyResult: there is no result " +
                    std::to_string(index),
                onError, userData);
  const ::mxq::RawTensor &r = unwrapExe(executable)->results[index];
  std::string what = "result " + std::to_string(index);
  std::vector<int64_t> shape, strides;
  std::string error;
  if (!readBuffer(destination, shape, strides, error, what))
    return fail(error, onError, userData);
  if (shape != r.shape || mlirTypeIsNull(destination.elementType) ||
      unwrap(destination.elementType) != r.elementType) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << what << " is " << r.elementType << " of shape [";
    llvm::interleaveComma(r.shape, os);
    os << "], but the destination is ";
    if (mlirTypeIsNull(destination.elementType))
      os << "of no element type";
    else
      os << unwrap(destination.elementType);
    os << " of shape [";
    llvm::interleaveComma(shape, os);
    os << "]";
    return fail(s, onError, userData);
  }
  if (isa<Float4E2M1FNType>(r.elementType)) {
    if (destination.strides)
      return fail(what + ": FP4 codes are packed two per byte along the last "
                         "axis; the destination must be contiguous (null "
                         "strides)",
                  onError, userData);
    std::memcpy(destination.data, r.data.data(), r.data.size());
    return mlirLogicalResultSuccess();
  }
  unsigned width = ::mxq::bytesPerElement(r.elementType);
  const uint8_t *in = r.data.data();
  uint8_t *base = static_cast<uint8_t *>(destination.data);
  forEachOffset(shape, strides, [&](int64_t offset) {
    std::memcpy(base + offset * int64_t(width), in, width);
    in += width;
  });
  return mlirLogicalResultSuccess();
}

void mxqExecutableDestroy(MxqExecutable executable) {
  delete unwrapExe(executable);
}

int64_t mxqGetBufferByteSize(MlirType type, intptr_t rank,
                             const int64_t *shape) {
  if (mlirTypeIsNull(type) || rank < 0 || (rank > 0 && !shape) ||
      !::mxq::bytesPerElement(unwrap(type)))
    return -1;
  for (intptr_t d = 0; d < rank; ++d)
    if (shape[d] < 0)
      return -1;
  return ::mxq::storageBytes(unwrap(type),
                             std::vector<int64_t>(shape, shape + rank));
}

intptr_t mxqGetElementByteWidth(MlirType type) {
  if (mlirTypeIsNull(type))
    return 0;
  return ::mxq::bytesPerElement(unwrap(type));
}
