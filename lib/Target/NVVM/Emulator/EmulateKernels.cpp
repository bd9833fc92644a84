//===- EmulateKernels.cpp - GPU kernels compiled for the SIMT emulator ----===//
//
// mxq-emulate-gpu-kernels: see Passes.td and mxq/Target/NVVM/SIMTEmulator.h.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/Path.h"

namespace mxq::nvvm {
#define GEN_PASS_DEF_MXQEMULATEGPUKERNELS
#include "mxq/Target/NVVM/Passes.h.inc"
} // namespace mxq::nvvm

using namespace mlir;

namespace {

/// "file:line:col" of the first file location inside `loc`, or "".
std::string shortLocation(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = (llvm::sys::path::filename(f.getFilename().getValue()) + ":" +
             llvm::Twine(f.getLine()) + ":" + llvm::Twine(f.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// libdevice functions whose results are exactly defined (IEEE operations
/// and roundings), which the runtime implements with the host's libm.
bool isModelledLibdevice(StringRef name) {
  static const char *const names[] = {
      "__nv_fabsf",  "__nv_fabs",   "__nv_floorf", "__nv_floor",
      "__nv_ceilf",  "__nv_ceil",   "__nv_truncf", "__nv_trunc",
      "__nv_rintf",  "__nv_rint",   "__nv_roundf", "__nv_round",
      "__nv_nearbyintf", "__nv_nearbyint", "__nv_fmaxf", "__nv_fmax",
      "__nv_fminf",  "__nv_fmin",   "__nv_copysignf", "__nv_copysign",
      "__nv_sqrtf",  "__nv_sqrt",   "__nv_fmaf",   "__nv_fma"};
  return llvm::is_contained(names, name);
}

struct Emulate
    : ::mxq::nvvm::impl::MXQEmulateGPUKernelsBase<Emulate> {
  ModuleOp module;
  SmallVector<Attribute> siteTexts;
  SmallVector<bool> siteStores;
  Type i8, i16, i32, i64, f32, ptr, voidTy;

  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> args) {
    if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return f;
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    return LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                    LLVM::LLVMFunctionType::get(result, args));
  }

  Value call(OpBuilder &b, Location loc, StringRef name, Type result,
             ValueRange args) {
    SmallVector<Type> types(args.getTypes());
    LLVM::LLVMFuncOp f = declare(name, result, types);
    auto c = LLVM::CallOp::create(b, loc, f, args);
    return isa<LLVM::LLVMVoidType>(result) ? Value() : c.getResult();
  }

  Value constant(OpBuilder &b, Location loc, Type t, int64_t v) {
    return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  }

  int32_t addSite(Operation *op, StringRef what, bool store,
                  StringRef kernel) {
    std::string text = (what + " in " + kernel).str();
    std::string where = shortLocation(op->getLoc());
    if (!where.empty())
      text += " at " + where;
    siteTexts.push_back(StringAttr::get(op->getContext(), text));
    siteStores.push_back(store);
    return int32_t(siteTexts.size() - 1);
  }

  /// Byte size of `t` in memory.
  static uint64_t bytesOf(const DataLayout &dl, Type t) {
    return dl.getTypeSize(t).getFixedValue();
  }
  /// Alignment a load or store without an attribute has: the element's.
  static uint64_t naturalAlignment(const DataLayout &dl, Type t) {
    if (auto v = dyn_cast<VectorType>(t))
      t = v.getElementType();
    return std::max<uint64_t>(1, bytesOf(dl, t));
  }

  LogicalResult rewriteBody(LLVM::LLVMFuncOp func, StringRef kernel,
                            const llvm::StringMap<int64_t> &sharedOffsets,
                            bool &collectives);
  LogicalResult moveModule(gpu::GPUModuleOp gm,
                           llvm::StringMap<std::string> &kernels,
                           llvm::StringMap<int64_t> &sharedBytes,
                           llvm::StringMap<bool> &collectives);
  LogicalResult rewriteLaunch(gpu::LaunchFuncOp launch,
                              const llvm::StringMap<std::string> &kernels,
                              const llvm::StringMap<int64_t> &sharedBytes);

  void runOnOperation() override {
    module = getOperation();
    MLIRContext *ctx = &getContext();
    i8 = IntegerType::get(ctx, 8);
    i16 = IntegerType::get(ctx, 16);
    i32 = IntegerType::get(ctx, 32);
    i64 = IntegerType::get(ctx, 64);
    f32 = Float32Type::get(ctx);
    ptr = LLVM::LLVMPointerType::get(ctx);
    voidTy = LLVM::LLVMVoidType::get(ctx);
    // Kernel "module::name" -> its thunk; its static shared bytes.
    llvm::StringMap<std::string> kernels;
    llvm::StringMap<int64_t> sharedBytes;
    llvm::StringMap<bool> collectives;
    for (auto gm : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      if (failed(moveModule(gm, kernels, sharedBytes, collectives)))
        return signalPassFailure();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
    for (gpu::LaunchFuncOp l : launches)
      if (failed(rewriteLaunch(l, kernels, sharedBytes)))
        return signalPassFailure();
    for (auto gm : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      gm.erase();
    for (auto b :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      b.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    module->setAttr("mxq.emu.sites", ArrayAttr::get(ctx, siteTexts));
    module->setAttr("mxq.emu.stores",
                    DenseBoolArrayAttr::get(ctx, siteStores));
  }
};

LogicalResult Emulate::moveModule(gpu::GPUModuleOp gm,
                                  llvm::StringMap<std::string> &kernels,
                                  llvm::StringMap<int64_t> &sharedBytes,
                                  llvm::StringMap<bool> &collectives) {
  std::string prefix = ("__mxq_emu_" + gm.getName() + "_").str();
  DataLayout dl = DataLayout::closest(module);
  // Shared-memory globals get offsets in the block's shared memory at
  // exactly their declared alignment (the element's when none is declared)
  // and deliberately at no more: an offset that is an odd multiple of it,
  // so that an access assuming more alignment than the kernel declared is
  // reported as misaligned, as it could fault on a GPU. A dynamic one
  // (zero-sized) starts after the static ones, 16-byte aligned.
  llvm::StringMap<int64_t> offsets;
  int64_t staticBytes = 0;
  SmallVector<LLVM::GlobalOp> dynamic;
  for (auto g : llvm::make_early_inc_range(gm.getOps<LLVM::GlobalOp>())) {
    if (g.getAddrSpace() != 3) {
      g.setAddrSpace(0);
      continue;
    }
    uint64_t size = bytesOf(dl, g.getGlobalType());
    if (size == 0) {
      dynamic.push_back(g);
      continue;
    }
    Type element = g.getGlobalType();
    while (auto a = dyn_cast<LLVM::LLVMArrayType>(element))
      element = a.getElementType();
    uint64_t align = g.getAlignment().value_or(0);
    if (!align)
      align = dl.getTypeABIAlignment(element);
    align = std::max<uint64_t>(align, 1);
    staticBytes = int64_t(llvm::alignTo(staticBytes, align));
    if (align < 256 && (staticBytes / int64_t(align)) % 2 == 0)
      staticBytes += int64_t(align);
    offsets[g.getSymName()] = staticBytes;
    staticBytes += int64_t(size);
    g.erase();
  }
  staticBytes = int64_t(llvm::alignTo(staticBytes, 16));
  for (LLVM::GlobalOp g : dynamic) {
    offsets[g.getSymName()] = staticBytes;
    g.erase();
  }
  // Renames every symbol of the module (uses inside it too).
  SmallVector<Operation *> ops;
  for (Operation &op : gm.getBody()->without_terminator())
    ops.push_back(&op);
  for (Operation *op : ops) {
    auto sym = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!sym)
      continue;
    // libdevice functions keep their names: the runtime has exact host
    // versions of those that are exact (mxq/Target/NVVM/SIMTEmulator.h).
    if (auto f = dyn_cast<LLVM::LLVMFuncOp>(op);
        f && f.isExternal() && sym.getValue().starts_with("__nv_")) {
      if (!isModelledLibdevice(sym.getValue()))
        return f.emitError("the SIMT emulator has no exact model of "
                           "libdevice's ")
               << sym.getValue();
      continue;
    }
    StringAttr renamed = StringAttr::get(op->getContext(), prefix + sym.str());
    if (failed(SymbolTable::replaceAllSymbolUses(sym, renamed,
                                                 &gm.getBodyRegion())))
      return gm.emitError("cannot rename @") << sym.getValue();
    SymbolTable::setSymbolName(op, renamed);
  }
  for (Operation *op : ops) {
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    std::string original =
        func ? func.getSymName().drop_front(prefix.size()).str() : "";
    std::string kernelName = (gm.getName() + "::" + original).str();
    bool usesCollectives = false;
    if (func && func.isExternal() &&
        module.lookupSymbol(func.getSymNameAttr())) {
      func.erase(); // a declaration the host module already has
      continue;
    }
    if (func && !func.isExternal() &&
        failed(rewriteBody(func, kernelName, offsets, usesCollectives)))
      return failure();
    op->moveBefore(module.getBody(), module.getBody()->end());
    if (!func || !func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
      continue;
    for (StringRef attr : {"gpu.kernel", "nvvm.kernel", "nvvm.maxntid",
                           "gpu.known_block_size", "gpu.known_grid_size",
                           "nvvm.reqntid", "nvvm.minctasm"})
      func->removeAttr(attr);
    // The thunk: void thunk(void **params) unpacks the arguments.
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = func.getLoc();
    std::string thunkName =
        ("__mxq_emu_thunk_" + gm.getName() + "_" + original).str();
    auto thunk = LLVM::LLVMFuncOp::create(
        b, loc, thunkName, LLVM::LLVMFunctionType::get(voidTy, {ptr}));
    Block *entry = thunk.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args;
    for (auto [i, t] :
         llvm::enumerate(func.getFunctionType().getParams())) {
      Value slot = LLVM::GEPOp::create(
          b, loc, ptr, ptr, entry->getArgument(0),
          ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value address = LLVM::LoadOp::create(b, loc, ptr, slot);
      args.push_back(LLVM::LoadOp::create(b, loc, t, address));
    }
    LLVM::CallOp::create(b, loc, func, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    std::string key = (gm.getName() + "::" + original).str();
    kernels[key] = thunkName;
    sharedBytes[key] = staticBytes;
    collectives[key] = usesCollectives;
  }
  return success();
}

LogicalResult
Emulate::rewriteBody(LLVM::LLVMFuncOp func, StringRef kernel,
                     const llvm::StringMap<int64_t> &sharedOffsets,
                     bool &collectives) {
  MLIRContext *ctx = func.getContext();
  // Every address space becomes the host's.
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](LLVM::LLVMPointerType t) -> std::optional<Type> {
        if (t.getAddressSpace() == 0)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(ctx);
      });
  replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  DataLayout dl = DataLayout::closest(module);
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  static const llvm::StringMap<int> sregs = {
      {"nvvm.read.ptx.sreg.tid.x", 0},     {"nvvm.read.ptx.sreg.tid.y", 1},
      {"nvvm.read.ptx.sreg.tid.z", 2},     {"nvvm.read.ptx.sreg.ntid.x", 3},
      {"nvvm.read.ptx.sreg.ntid.y", 4},    {"nvvm.read.ptx.sreg.ntid.z", 5},
      {"nvvm.read.ptx.sreg.ctaid.x", 6},   {"nvvm.read.ptx.sreg.ctaid.y", 7},
      {"nvvm.read.ptx.sreg.ctaid.z", 8},   {"nvvm.read.ptx.sreg.nctaid.x", 9},
      {"nvvm.read.ptx.sreg.nctaid.y", 10}, {"nvvm.read.ptx.sreg.nctaid.z", 11},
      {"nvvm.read.ptx.sreg.laneid", 12},   {"nvvm.read.ptx.sreg.warpsize", 13}};
  // A convert's result (i16, i8 or a vector of bytes) from the model's
  // packed integer.
  auto replaceConvert = [&](OpBuilder &b, Operation *cvt, Value packed) {
    Type t = cvt->getResult(0).getType();
    if (t != packed.getType())
      packed = LLVM::BitcastOp::create(b, cvt->getLoc(), t, packed);
    cvt->getResult(0).replaceAllUsesWith(packed);
    cvt->erase();
  };
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    StringRef name = op->getName().getStringRef();
    if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(op)) {
      cast.replaceAllUsesWith(cast.getArg());
      cast.erase();
      continue;
    }
    if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
      auto it = sharedOffsets.find(addr.getGlobalName());
      if (it == sharedOffsets.end())
        continue;
      Value p = call(b, loc, "mxq_emu_shared", ptr,
                     {constant(b, loc, i64, it->second)});
      addr.replaceAllUsesWith(p);
      addr.erase();
      continue;
    }
    if (auto it = sregs.find(name); it != sregs.end()) {
      Value v = call(b, loc, "mxq_emu_sreg", i32,
                     {constant(b, loc, i32, it->second)});
      op->getResult(0).replaceAllUsesWith(v);
      op->erase();
      continue;
    }
    if (isa<NVVM::Barrier0Op>(op) ||
        (isa<NVVM::BarrierOp>(op) && op->getNumOperands() == 0 &&
         op->getNumResults() == 0)) {
      int32_t site = addSite(op, "barrier", false, kernel);
      call(b, loc, "mxq_emu_barrier", voidTy, {constant(b, loc, i32, site)});
      collectives = true;
      op->erase();
      continue;
    }
    if (auto shfl = dyn_cast<NVVM::ShflOp>(op)) {
      Type valueType = shfl.getVal().getType();
      if (valueType != i32 && valueType != f32)
        return op->emitError("the SIMT emulator models nvvm.shfl.sync of i32 "
                             "and f32 only, not ")
               << valueType;
      int32_t site = addSite(op, "shuffle", false, kernel);
      int kind = 3;
      switch (shfl.getKind()) {
      case NVVM::ShflKind::up: kind = 0; break;
      case NVVM::ShflKind::down: kind = 1; break;
      case NVVM::ShflKind::bfly: kind = 2; break;
      case NVVM::ShflKind::idx: kind = 3; break;
      }
      Value value = shfl.getVal();
      if (valueType == f32)
        value = LLVM::BitcastOp::create(b, loc, i32, value);
      Value packed = call(
          b, loc, "mxq_emu_shfl", i64,
          {constant(b, loc, i32, kind), shfl.getThreadMask(), value,
           shfl.getOffset(), shfl.getMaskAndClamp(),
           constant(b, loc, i32, site)});
      Value result = LLVM::TruncOp::create(b, loc, i32, packed);
      if (valueType == f32)
        result = LLVM::BitcastOp::create(b, loc, f32, result);
      Value out = result;
      if (auto st = dyn_cast<LLVM::LLVMStructType>(shfl.getType())) {
        Value valid = LLVM::TruncOp::create(
            b, loc, IntegerType::get(ctx, 1),
            LLVM::LShrOp::create(b, loc, packed, constant(b, loc, i64, 32)));
        out = LLVM::PoisonOp::create(b, loc, st);
        out = LLVM::InsertValueOp::create(b, loc, out, result, ArrayRef<int64_t>{0});
        out = LLVM::InsertValueOp::create(b, loc, out, valid, ArrayRef<int64_t>{1});
      }
      collectives = true;
      shfl.replaceAllUsesWith(out);
      shfl.erase();
      continue;
    }
    if (auto cvt = dyn_cast<NVVM::ConvertF32x2ToF8x2Op>(op)) {
      Type dst = cvt.getDstTy();
      Value packed;
      if (isa<Float8E8M0FNUType>(dst)) {
        if (cvt.getRnd() != NVVM::FPRoundingMode::RP &&
            cvt.getRnd() != NVVM::FPRoundingMode::RZ)
          return op->emitError("the SIMT emulator models ue8m0x2 converts "
                               "with .rz or .rp only");
        packed = call(
            b, loc, "mxq_emu_cvt_ue8m0x2", i16,
            {cvt.getA(), cvt.getB(),
             constant(b, loc, i32, cvt.getRnd() == NVVM::FPRoundingMode::RP),
             constant(b, loc, i32,
                      cvt.getSat() == NVVM::SaturationMode::SATFINITE)});
      } else {
        if (cvt.getRnd() != NVVM::FPRoundingMode::RN ||
            cvt.getSat() != NVVM::SaturationMode::SATFINITE)
          return op->emitError("the SIMT emulator models FP8 converts as "
                               "cvt.rn.satfinite only");
        packed = call(b, loc, "mxq_emu_cvt_f8x2", i16,
                      {cvt.getA(), cvt.getB(),
                       constant(b, loc, i32, isa<Float8E5M2Type>(dst) ? 1 : 0),
                       constant(b, loc, i32, cvt.getRelu())});
      }
      replaceConvert(b, cvt, packed);
      continue;
    }
    if (auto cvt = dyn_cast<NVVM::ConvertF32x2ToF6x2Op>(op)) {
      Value packed = call(
          b, loc, "mxq_emu_cvt_f6x2", i16,
          {cvt.getA(), cvt.getB(),
           constant(b, loc, i32, isa<Float6E3M2FNType>(cvt.getDstTy()) ? 3 : 2),
           constant(b, loc, i32, cvt.getRelu())});
      replaceConvert(b, cvt, packed);
      continue;
    }
    if (auto cvt = dyn_cast<NVVM::ConvertF32x2ToF4x2Op>(op)) {
      Value packed = call(b, loc, "mxq_emu_cvt_f4x2", i8,
                          {cvt.getA(), cvt.getB(),
                           constant(b, loc, i32, cvt.getRelu())});
      replaceConvert(b, cvt, packed);
      continue;
    }
    if (isa<LLVM::LoadOp, LLVM::StoreOp>(op)) {
      auto load = dyn_cast<LLVM::LoadOp>(op);
      auto store = dyn_cast<LLVM::StoreOp>(op);
      Type t = load ? load.getType() : store.getValue().getType();
      Value addr = load ? load.getAddr() : store.getAddr();
      std::optional<uint64_t> given =
          load ? load.getAlignment() : store.getAlignment();
      int32_t site = addSite(op, (load ? "load " : "store ") + typeText(t),
                             /*store=*/!load, kernel);
      call(b, loc, "mxq_emu_access", voidTy,
           {addr, constant(b, loc, i64, bytesOf(dl, t)),
            constant(b, loc, i64, given.value_or(naturalAlignment(dl, t))),
            constant(b, loc, i32, site)});
      continue;
    }
    if (isa<LLVM::MaskedLoadOp, LLVM::MaskedStoreOp>(op)) {
      bool isStore = isa<LLVM::MaskedStoreOp>(op);
      Value address = isStore ? cast<LLVM::MaskedStoreOp>(op).getData()
                              : cast<LLVM::MaskedLoadOp>(op).getData();
      Value mask = isStore ? cast<LLVM::MaskedStoreOp>(op).getMask()
                           : cast<LLVM::MaskedLoadOp>(op).getMask();
      uint64_t align = isStore ? cast<LLVM::MaskedStoreOp>(op).getAlignment()
                               : cast<LLVM::MaskedLoadOp>(op).getAlignment();
      auto vt = cast<VectorType>(isStore
                                     ? cast<LLVM::MaskedStoreOp>(op)
                                           .getValue()
                                           .getType()
                                     : op->getResult(0).getType());
      if (vt.isScalable())
        return op->emitError("the SIMT emulator has no scalable vectors");
      int64_t n = vt.getNumElements();
      uint64_t element = bytesOf(dl, vt.getElementType());
      int32_t site =
          addSite(op, (isStore ? "masked store " : "masked load ") +
                          typeText(vt),
                  isStore, kernel);
      for (int64_t first = 0; first < n; first += 64) {
        int64_t lanes = std::min<int64_t>(64, n - first);
        Value chunk = mask;
        if (lanes != n) {
          SmallVector<int32_t> idx;
          for (int64_t i = 0; i < lanes; ++i)
            idx.push_back(int32_t(first + i));
          chunk = LLVM::ShuffleVectorOp::create(b, loc, mask, mask, idx);
        }
        Value bits = LLVM::BitcastOp::create(
            b, loc, IntegerType::get(ctx, unsigned(lanes)), chunk);
        if (lanes < 64)
          bits = LLVM::ZExtOp::create(b, loc, i64, bits);
        Value at = address;
        if (first)
          at = LLVM::GEPOp::create(b, loc, ptr, i8, address,
                                   ArrayRef<LLVM::GEPArg>{
                                       int32_t(first * int64_t(element))});
        call(b, loc, "mxq_emu_access_masked", voidTy,
             {at, constant(b, loc, i64, element), constant(b, loc, i64, lanes),
              bits, constant(b, loc, i64, align), constant(b, loc, i32, site),
              constant(b, loc, i64, first),
              constant(b, loc, i32, first + 64 >= n)});
      }
      continue;
    }
    if (isa<LLVM::MemcpyOp, LLVM::MemmoveOp, LLVM::MemsetOp>(op)) {
      // A copy checks its source as a load and its destination as a store,
      // byte-aligned (what the intrinsic promises without attributes).
      Value dst = op->getOperand(0);
      Value len = op->getOperand(2); // (dst, src or value, len)
      if (len.getType() != i64)
        len = LLVM::ZExtOp::create(b, loc, i64, len);
      if (!isa<LLVM::MemsetOp>(op)) {
        int32_t site = addSite(op, name.str() + " source", false, kernel);
        call(b, loc, "mxq_emu_access", voidTy,
             {op->getOperand(1), len, constant(b, loc, i64, 1),
              constant(b, loc, i32, site)});
      }
      int32_t site = addSite(op, name.str() + " destination", true, kernel);
      call(b, loc, "mxq_emu_access", voidTy,
           {dst, len, constant(b, loc, i64, 1), constant(b, loc, i32, site)});
      continue;
    }
    if (isa<LLVM::masked_gather, LLVM::masked_scatter, LLVM::AtomicRMWOp,
            LLVM::AtomicCmpXchgOp, LLVM::MemcpyInlineOp>(op))
      return op->emitError("the SIMT emulator does not check ")
             << name << " yet; it would run unchecked";
    if (isa<NVVM::NVVMDialect>(op->getDialect()))
      return op->emitError("the SIMT emulator does not model ") << name;
  }
  return success();
}

LogicalResult
Emulate::rewriteLaunch(gpu::LaunchFuncOp launch,
                       const llvm::StringMap<std::string> &kernels,
                       const llvm::StringMap<int64_t> &sharedBytes) {
  std::string key =
      (launch.getKernelModuleName().getValue() + "::" +
       launch.getKernelName().getValue())
          .str();
  auto it = kernels.find(key);
  if (it == kernels.end())
    return launch.emitError("the SIMT emulator has no kernel ") << key;
  if (launch->getNumResults() != 0 || !launch.getAsyncDependencies().empty())
    return launch.emitError("the SIMT emulator expects launches after "
                            "gpu-to-llvm (on a stream, without tokens)");
  auto func = launch->getParentOfType<LLVM::LLVMFuncOp>();
  if (!func)
    return launch.emitError("the SIMT emulator expects host code in the "
                            "LLVM dialect (run gpu-to-llvm first)");
  Location loc = launch.getLoc();
  OpBuilder entry(&func.getBody().front(), func.getBody().front().begin());
  OpBuilder b(launch);
  ValueRange operands = launch.getKernelOperands();
  Value array = LLVM::AllocaOp::create(
      entry, loc, ptr, ptr,
      constant(entry, loc, i64, std::max<int64_t>(1, operands.size())));
  for (auto [i, v] : llvm::enumerate(operands)) {
    Value slot = LLVM::AllocaOp::create(entry, loc, ptr, v.getType(),
                                        constant(entry, loc, i64, 1));
    LLVM::StoreOp::create(b, loc, v, slot);
    Value at = LLVM::GEPOp::create(b, loc, ptr, ptr, array,
                                   ArrayRef<LLVM::GEPArg>{int32_t(i)});
    LLVM::StoreOp::create(b, loc, slot, at);
  }
  auto asI64 = [&](Value v) -> Value {
    if (v.getType() == i64)
      return v;
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return LLVM::ZExtOp::create(b, loc, i64, v);
    return LLVM::TruncOp::create(b, loc, i64, v);
  };
  Value shared = constant(b, loc, i64, sharedBytes.lookup(key));
  if (Value dynamic = launch.getDynamicSharedMemorySize())
    shared = LLVM::AddOp::create(b, loc, shared, asI64(dynamic));
  auto thunk = module.lookupSymbol<LLVM::LLVMFuncOp>(it->second);
  Value thunkAddress = LLVM::AddressOfOp::create(b, loc, thunk);
  std::string nameSymbol =
      "__mxq_emu_name_" +
      StringRef(it->second).drop_front(strlen("__mxq_emu_thunk_")).str();
  Value name;
  if (auto g = module.lookupSymbol<LLVM::GlobalOp>(nameSymbol))
    name = LLVM::AddressOfOp::create(b, loc, g);
  else
    name = LLVM::createGlobalString(loc, b, nameSymbol, key + '\0',
                                    LLVM::Linkage::Internal);
  auto sizes = launch.getGridSizeOperandValues();
  auto threads = launch.getBlockSizeOperandValues();
  call(b, loc, "mxq_emu_launch", voidTy,
       {thunkAddress, name, asI64(sizes.x), asI64(sizes.y), asI64(sizes.z),
        asI64(threads.x), asI64(threads.y), asI64(threads.z), shared, array});
  launch.erase();
  return success();
}

} // namespace
