//===- Flags.cpp - set_flag, wait_flag, pipe_barrier ----------------------===//
#include "Machine.h"

namespace mxq::vtile::sim {

bool Simulator::flagOf(Operation *op, Pipe src, Pipe dst, Value idValue, Flag *&flag) {
  int64_t id = get(idValue);
  if (id < 0 || id > 7)
    return fail(op,
                "uses event id " + llvm::Twine(id) + ", but ids are 0 to 7");
  flag = &core->flags[pipeIndex(src)][pipeIndex(dst)][id];
  return true;
}

bool Simulator::setFlag(SetFlagOp op) {
  Flag *flag = nullptr;
  if (!flagOf(op, op.getSrc(), op.getDst(), op.getId(), flag))
    return false;
  if (flag->set)
    return fail(op, "sets a flag that is already set (no wait_flag cleared "
                    "it); the hardware leaves that undefined and can hang");
  int src = pipeIndex(op.getSrc());
  flag->set = true;
  std::memcpy(flag->clock, core->clock[src], sizeof(flag->clock));
  flag->clock[src] = core->count[src];
  flag->time = std::max(core->issue, core->lastDone[src]);
  return true;
}

bool Simulator::waitFlag(WaitFlagOp op) {
  Flag *flag = nullptr;
  if (!flagOf(op, op.getSrc(), op.getDst(), op.getId(), flag))
    return false;
  if (!flag->set)
    return fail(op, "waits for a flag that no earlier set_flag set: pipe " +
                        llvm::Twine(stringifyPipe(op.getDst())) +
                        " would wait forever (deadlock)");
  int dst = pipeIndex(op.getDst());
  for (int q = 0; q < 4; ++q)
    core->clock[dst][q] = std::max(core->clock[dst][q], flag->clock[q]);
  if (dst == kS)
    core->issue = std::max(core->issue, flag->time);
  else
    core->freeAt[dst] = std::max(core->freeAt[dst], flag->time);
  flag->set = false;
  return true;
}

bool Simulator::barrier(PipeBarrierOp op) {
  int p = pipeIndex(op.getPipe());
  if (p >= 0) {
    core->freeAt[p] = std::max(core->freeAt[p], core->lastDone[p]);
    return true;
  }
  double end = core->issue;
  uint32_t joined[4] = {0, 0, 0, 0};
  for (int q = 0; q < 4; ++q) {
    end = std::max(end, core->lastDone[q]);
    for (int k = 0; k < 4; ++k)
      joined[k] = std::max(joined[k], core->clock[q][k]);
    joined[q] = std::max(joined[q], core->count[q]);
  }
  for (int q = 0; q < 4; ++q) {
    core->freeAt[q] = end;
    std::memcpy(core->clock[q], joined, sizeof(joined));
  }
  core->issue = end;
  return true;
}

} // namespace mxq::vtile::sim
