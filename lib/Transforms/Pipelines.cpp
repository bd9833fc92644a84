//===- Pipelines.cpp - pipeline pieces every target shares ----------------===//
#include "mxq/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void ::mxq::addMXQBufferizationPasses(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  // Empty-tensor elimination before CSE: once CSE has merged two identical
  // tensor.empty ops (two scale tensors of one static size, e.g. the two
  // halves of a dual_quantize tile), the pass rewrites the shared empty into
  // one destination and both computations write there (a wrong answer the
  // structured fuzzer found, test/Regressions/fuzz-structured.test).
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(createCSEPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // One canonicalize after CSE: a second one before CSE changed nothing that
  // reaches LLVM (the CPU and GPU pipelines' output of the bench kernels and
  // every example is byte-identical without it) and cost 0.5 ms a compile.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

