//===- LLVMCleanup.cpp - the CPU target's LLVM IR pipeline ----------------===//
//
// What the JIT runs on a CPU kernel's LLVM IR before code generation: a
// scalar clean-up instead of an O-level, then one rewrite for the x86 back
// end (docs/Rationale.md, "LLVM pipeline of the CPU target" and "Halving
// shuffles split after LLVM's clean-up").
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/CPU/CPURunner.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

namespace mxq::cpu {

/// A shuffle that takes half the lanes of one vector wider than 512 bits
/// (FP4's even and odd codes out of 128 bytes) becomes a shuffle of that
/// vector's two halves: the same lanes. Instcombine merges the two forms
/// into the first, which LLVM 22's x86 back end splits at great cost (7 of
/// the 24 ms that code generation of an FP4 quantize took) and into 8
/// vpermt2b where the second takes 2. Run after the clean-up, so that
/// nothing merges them back.
static void splitHalvingShuffles(llvm::Module &module) {
  llvm::SmallVector<llvm::ShuffleVectorInst *> work;
  for (llvm::Function &f : module)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &inst : bb)
        if (auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(&inst)) {
          auto *source =
              llvm::dyn_cast<llvm::FixedVectorType>(
                  shuffle->getOperand(0)->getType());
          auto *result =
              llvm::dyn_cast<llvm::FixedVectorType>(shuffle->getType());
          if (source && result && llvm::isa<llvm::PoisonValue>(
                                      shuffle->getOperand(1)) &&
              source->getNumElements() == 2 * result->getNumElements() &&
              source->getPrimitiveSizeInBits() > 512)
            work.push_back(shuffle);
        }
  for (llvm::ShuffleVectorInst *shuffle : work) {
    llvm::IRBuilder<> b(shuffle);
    unsigned n = llvm::cast<llvm::FixedVectorType>(shuffle->getType())
                     ->getNumElements();
    llvm::SmallVector<int> low, high;
    for (unsigned i = 0; i < n; ++i) {
      low.push_back(i);
      high.push_back(n + i);
    }
    llvm::Value *source = shuffle->getOperand(0);
    llvm::Value *split = b.CreateShuffleVector(
        b.CreateShuffleVector(source, low),
        b.CreateShuffleVector(source, high), shuffle->getShuffleMask());
    shuffle->replaceAllUsesWith(split);
    shuffle->eraseFromParent();
  }
}

llvm::Error optimizeVectorizedModule(llvm::Module *module) {
  // The scalar clean-up a module needs whose loops MLIR has already tiled,
  // vectorized and unrolled: fold the descriptor and index arithmetic,
  // share common values, hoist invariants out of the loops, and turn the
  // byte loops that fill padded scales into memset (loop-idiom, on rotated
  // loops: the dual 7% faster than without). LLVM's O3 adds
  // its loop and SLP vectorizers and unrollers on top, which find nothing
  // to vectorize here and cost 3-6x this pipeline's compile time
  // (docs/Rationale.md, "LLVM pipeline of the CPU target"). One instcombine
  // before GVN: a second one after it saved 2 of 470 instructions of a
  // quantize and 1 of 1740 of the dual, and cost 0.9 ms a compile.
  static constexpr const char *kPipeline =
      "function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,"
      "simplifycfg,loop-mssa(licm),loop(loop-rotate,loop-idiom),gvn,"
      "simplifycfg)";
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (llvm::Error e = pb.parsePassPipeline(mpm, kPipeline))
    return e;
  mpm.run(*module, mam);
  splitHalvingShuffles(*module);
  return llvm::Error::success();
}

} // namespace mxq::cpu
