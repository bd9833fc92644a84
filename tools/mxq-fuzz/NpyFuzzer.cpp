//===- NpyFuzzer.cpp - the .npy reader and the tensor conversions ---------===//
//
// Any bytes as a .npy file: the reader accepts them or says why, never
// crashes, and what it accepts is consistent (the data holds exactly the
// bytes its shape and dtype need). Accepted arrays then go through the
// conversion every front end uses (tensorFromNpy) for a few argument types,
// and back (tensorToNpy), which must give the same bytes.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include "mxq/Interpreter/Interpreter.h"
#include "mxq/Runtime/Tensor.h"
#include "mxq/Support/Npy.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = ::mxq::fuzz::context();
  std::string content(reinterpret_cast<const char *>(data), size);
  ::mxq::npy::Array array;
  std::string error;
  if (!::mxq::npy::parse(content, "fuzz", array, error)) {
    if (error.empty())
      ::mxq::fuzz::fail("a rejected .npy file without a reason");
    return 0;
  }
  unsigned item = ::mxq::npy::itemSize(array.descr);
  uint64_t count = item;
  for (int64_t d : array.shape) {
    if (d < 0)
      ::mxq::fuzz::fail("an accepted .npy file with a negative dimension");
    count *= uint64_t(d);
  }
  if (item == 0 || array.data.size() != count)
    ::mxq::fuzz::fail("an accepted .npy file whose data does not fit its "
                      "shape");
  // The conversions of every front end, for a few argument types.
  static std::vector<RankedTensorType> types = [&] {
    Builder b(&ctx);
    int64_t dyn = ShapedType::kDynamic;
    return std::vector<RankedTensorType>{
        RankedTensorType::get({dyn, dyn}, b.getF32Type()),
        RankedTensorType::get({dyn}, b.getBF16Type()),
        RankedTensorType::get({dyn, dyn}, b.getF16Type()),
        RankedTensorType::get({4, dyn}, b.getType<Float8E4M3FNType>()),
        RankedTensorType::get({dyn, dyn}, b.getType<Float4E2M1FNType>()),
        RankedTensorType::get({dyn, 3}, b.getType<Float6E3M2FNType>()),
        RankedTensorType::get({dyn}, b.getType<Float8E8M0FNUType>())};
  }();
  for (RankedTensorType type : types) {
    ::mxq::RawTensor tensor;
    std::string err;
    if (!::mxq::tensorFromNpy(array, type, 0, tensor, err)) {
      if (err.empty())
        ::mxq::fuzz::fail("a rejected conversion without a reason");
      continue;
    }
    ::mxq::npy::Array back = ::mxq::tensorToNpy(tensor);
    if (back.shape != array.shape)
      ::mxq::fuzz::fail("tensorToNpy changed the shape");
    // FP4 and FP6 codes are masked to their width on the way back.
    if (!isa<Float4E2M1FNType, Float6E3M2FNType>(type.getElementType()) &&
        back.data != array.data)
      ::mxq::fuzz::fail("tensorToNpy(tensorFromNpy(a)) != a");
  }
  return 0;
}
