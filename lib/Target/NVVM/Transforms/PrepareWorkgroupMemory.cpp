//===- PrepareWorkgroupMemory.cpp - shared memory ready for NVVM ----------===//
#include "mxq/Target/NVVM/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQPREPAREWORKGROUPMEMORY
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

struct MXQPrepareWorkgroupMemory
    : ::mxq::nvvm::impl::MXQPrepareWorkgroupMemoryBase<
          MXQPrepareWorkgroupMemory> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
        if (!func.getWorkgroupAttributionAttr(i, name))
          func.setWorkgroupAttributionAttr(
              i, name, IntegerAttr::get(IntegerType::get(ctx, 64), 16));
    });
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](gpu::AddressSpaceAttr space) -> std::optional<Attribute> {
          if (space.getValue() != gpu::AddressSpace::Workgroup)
            return std::nullopt;
          return IntegerAttr::get(
              IntegerType::get(ctx, 64),
              static_cast<int64_t>(NVVM::NVVMMemorySpace::Shared));
        });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};

} // namespace
