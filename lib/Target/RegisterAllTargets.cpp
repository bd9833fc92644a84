//===- RegisterAllTargets.cpp - every target this build has ---------------===//
//
// Targets.def is generated from the CMake list MXQ_TARGETS: one
// MXQ_TARGET(Name) per target, whose folder defines mxq::register<Name>Target().
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/Target.h"

#define MXQ_TARGET(Name) namespace mxq { void register##Name##Target(); }
#include "mxq/Target/Targets.def"
#undef MXQ_TARGET

void mxq::registerAllTargets() {
  static bool done = [] {
#define MXQ_TARGET(Name) register##Name##Target();
#include "mxq/Target/Targets.def"
#undef MXQ_TARGET
    return true;
  }();
  (void)done;
}
