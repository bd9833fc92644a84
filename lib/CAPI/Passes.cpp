//===- Passes.cpp - C API: mxq's passes and pipelines ---------------------===//
#include "mxq-c/Passes.h"
#include "mxq/InitAll.h"
#include "mxq/Target/Target.h"

void mxqRegisterPasses(void) {
  ::mxq::registerAllTargets();
  ::mxq::registerPasses();
}
