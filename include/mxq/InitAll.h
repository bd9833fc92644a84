//===- InitAll.h - everything mxq's tools register --------------*- C++ -*-===//
#ifndef MXQ_INITALL_H
#define MXQ_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mxq {

/// mxq and the upstream dialects, interface models and LLVM IR translations
/// the shared stages use, then those of every registered target (call
/// mxq::registerAllTargets() first for all of them).
void registerDialects(mlir::DialectRegistry &registry);

/// mxq's shared passes and the upstream passes they are made of, then the
/// passes and pipelines of every registered target.
void registerPasses();

} // namespace mxq

#endif // MXQ_INITALL_H
