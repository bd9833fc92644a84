//===- SIMTRuntime.cpp - the SIMT emulator's runtime ----------------------===//
//
// See mxq/Target/NVVM/SIMTEmulator.h. Plain C++ (no MLIR): thread blocks,
// fibers, checks, profile, and the mgpu* calls on host memory.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/PTXConverts.h"
#include "mxq/Target/NVVM/SIMTEmulator.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <unordered_map>

// AddressSanitizer must be told when the stack changes under it (fibers).
#if defined(__SANITIZE_ADDRESS__)
#define MXQ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MXQ_ASAN 1
#endif
#endif
#ifdef MXQ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace mxq::simt {

namespace {

constexpr size_t kStackBytes = 512 * 1024;

enum class State { Runnable, Barrier, Shuffle, Done, Killed };

struct Thread {
  ucontext_t context;
  char *stack = nullptr;
  State state = State::Runnable;
  uint32_t x = 0, y = 0, z = 0, linear = 0;
  // A pending barrier or shuffle.
  int32_t site = -1;
  int32_t shflKind = 0, shflMask = 0, shflValue = 0, shflOffset = 0,
          shflClamp = 0;
  int64_t shflResult = 0;
  std::vector<uint32_t> counts; ///< executions of each access site
};

/// Shadow of one shared byte for the race check.
struct Shadow {
  uint64_t epoch = 0;
  int32_t writer = -1; ///< linear thread id, -1 none
  int32_t reader = -1; ///< linear thread id, -1 none, -2 several
};

/// One warp-wide execution of a memory instruction piece.
struct InstanceKey {
  uint32_t warp, site, piece, count;
  bool operator==(const InstanceKey &o) const {
    return warp == o.warp && site == o.site && piece == o.piece &&
           count == o.count;
  }
};
struct InstanceHash {
  size_t operator()(const InstanceKey &k) const {
    uint64_t h = k.warp * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t(k.site) << 32 | k.piece) * 0xC2B2AE3D27D4EB4Full;
    h ^= k.count * 0x165667B19E3779F9ull;
    return size_t(h ^ (h >> 29));
  }
};
struct Instance {
  bool shared = false;
  uint32_t pieceBytes = 0;
  std::vector<std::pair<uint64_t, uint32_t>> ranges; ///< address, bytes
};

std::vector<char *> &stackPool() {
  static thread_local std::vector<char *> pool;
  return pool;
}

char *takeStack() {
  auto &pool = stackPool();
  if (!pool.empty()) {
    char *s = pool.back();
    pool.pop_back();
    return s;
  }
  long page = sysconf(_SC_PAGESIZE);
  void *p = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  // A guard page: a fiber that overflows its stack faults instead of
  // corrupting its neighbour.
  mprotect(p, size_t(page), PROT_NONE);
  return static_cast<char *>(p);
}

void giveStack(char *s) {
  if (s)
    stackPool().push_back(s);
}

struct Launch;
thread_local Session *active = nullptr;
thread_local Launch *running = nullptr;

std::string hex(const void *p) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "0x%" PRIxPTR,
                reinterpret_cast<uintptr_t>(p));
  return buffer;
}

std::string triple(uint32_t x, uint32_t y, uint32_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," +
         std::to_string(z) + ")";
}

} // namespace

struct Session::Impl {
  /// Device buffers: start -> bytes.
  std::map<uintptr_t, size_t> buffers;
  std::string firstError;
  uint64_t epoch = 1;
  uint64_t bytesRead = 0, bytesWritten = 0;
  void fail(const std::string &message) {
    if (firstError.empty())
      firstError = message;
  }
};

namespace {

struct Launch {
  Session &session;
  std::string kernel;
  void (*thunk)(void **);
  void **params;
  uint32_t grid[3], block[3];
  uint32_t blockId[3] = {0, 0, 0};
  /// The block's shared memory: 256-byte aligned (an offset's alignment is
  /// the address's).
  std::vector<uint8_t> sharedStorage;
  uint8_t *sharedBase = nullptr;
  size_t sharedSize = 0;
  std::vector<Shadow> shadow;
  std::vector<Thread> threads;
  ucontext_t scheduler;
  /// The scheduler's stack, for AddressSanitizer's fiber annotations.
  const void *schedulerBottom = nullptr;
  size_t schedulerSize = 0;
  Thread *current = nullptr;
  bool failed = false;
  std::unordered_map<InstanceKey, Instance, InstanceHash> instances;

  Launch(Session &s) : session(s) {}

  std::string where(const Thread &t) const {
    return "kernel " + kernel + ", block " +
           triple(blockId[0], blockId[1], blockId[2]) + ", thread " +
           triple(t.x, t.y, t.z);
  }
  std::string siteText(int32_t site) const {
    if (site >= 0 && size_t(site) < session.siteText.size())
      return session.siteText[site];
    return "an unknown instruction";
  }

  /// Records the first error and marks the launch failed. From a fiber it
  /// is followed by killCurrent(), in a separate statement: the fiber never
  /// resumes, so nothing it holds on the heap at that point (a message's
  /// temporaries) would ever be freed.
  void recordFailure(const std::string &message) {
    session.impl->fail(message);
    failed = true;
  }
  /// Abandons the current fiber (it is never resumed).
  [[noreturn]] void killCurrent() {
    Thread *t = current;
    t->state = State::Killed;
    yieldToScheduler(*t, /*exiting=*/true);
    std::abort(); // a killed fiber is never resumed
  }
  void failInScheduler(const std::string &message) {
    session.impl->fail(message);
    failed = true;
  }

  /// From a fiber to the scheduler (and back, unless `exiting`).
  void yieldToScheduler(Thread &t, bool exiting = false) {
#ifdef MXQ_ASAN
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(exiting ? nullptr : &fake, schedulerBottom,
                                   schedulerSize);
#endif
    swapcontext(&t.context, &scheduler);
#ifdef MXQ_ASAN
    __sanitizer_finish_switch_fiber(fake, &schedulerBottom, &schedulerSize);
#endif
  }

  /// From the scheduler into `t`'s fiber, until it yields or ends.
  void resume(Thread &t) {
    long page = sysconf(_SC_PAGESIZE);
    (void)page;
#ifdef MXQ_ASAN
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, t.stack + page,
                                   kStackBytes - size_t(page));
#endif
    swapcontext(&scheduler, &t.context);
#ifdef MXQ_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  }

  static void fiberMain() {
    Launch *l = running;
#ifdef MXQ_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &l->schedulerBottom,
                                    &l->schedulerSize);
#endif
    l->thunk(l->params);
    l->current->state = State::Done;
    // uc_link returns to the scheduler; this fiber's stack is done.
#ifdef MXQ_ASAN
    __sanitizer_start_switch_fiber(nullptr, l->schedulerBottom,
                                   l->schedulerSize);
#endif
  }

  bool runBlock();
  void resolveShuffle(size_t first, size_t last);
  void flushInstances();
  void access(void *p, uint64_t bytes, uint64_t align, int32_t site,
              uint32_t pieceBase);
};

bool Launch::runBlock() {
  size_t n = threads.size();
  for (size_t i = 0; i < n; ++i) {
    Thread &t = threads[i];
    t.state = State::Runnable;
    t.site = -1;
    std::fill(t.counts.begin(), t.counts.end(), 0);
    if (!t.stack && !(t.stack = takeStack())) {
      failInScheduler("the emulator cannot allocate a fiber stack");
      return false;
    }
    getcontext(&t.context);
    long page = sysconf(_SC_PAGESIZE);
    t.context.uc_stack.ss_sp = t.stack + page;
    t.context.uc_stack.ss_size = kStackBytes - size_t(page);
    t.context.uc_link = &scheduler;
    makecontext(&t.context, &Launch::fiberMain, 0);
  }
  std::memset(sharedBase, 0xA5, sharedSize); // not zero: as undefined
  ++session.impl->epoch; // a new block: no access of the last one counts
  while (true) {
    for (size_t i = 0; i < n && !failed; ++i) {
      Thread &t = threads[i];
      while (t.state == State::Runnable && !failed) {
        current = &t;
        resume(t);
      }
    }
    current = nullptr;
    if (failed)
      return false;
    size_t live = 0, atBarrier = 0;
    const Thread *exited = nullptr;
    for (const Thread &t : threads) {
      if (t.state == State::Done) {
        exited = &t;
        continue;
      }
      ++live;
      atBarrier += t.state == State::Barrier;
    }
    if (live == 0)
      break;
    // Warp collectives first: a warp whose live lanes all wait at a shuffle.
    bool resolved = false;
    for (size_t w = 0; w < n; w += 32) {
      size_t last = std::min(n, w + 32);
      bool any = false, all = true;
      for (size_t i = w; i < last; ++i) {
        if (threads[i].state == State::Done)
          continue;
        any |= threads[i].state == State::Shuffle;
        all &= threads[i].state == State::Shuffle;
      }
      if (any && all) {
        resolveShuffle(w, last);
        if (failed)
          return false;
        resolved = true;
      }
    }
    if (resolved)
      continue;
    if (atBarrier == live) {
      const Thread *waiting = nullptr;
      for (const Thread &t : threads)
        if (t.state == State::Barrier) {
          if (!waiting)
            waiting = &t;
          else if (t.site != waiting->site) {
            failInScheduler("divergent barrier: " + where(t) + " waits at " +
                            siteText(t.site) + " while thread " +
                            triple(waiting->x, waiting->y, waiting->z) +
                            " waits at " + siteText(waiting->site));
            return false;
          }
        }
      if (exited) {
        failInScheduler("divergent barrier: " + where(*exited) +
                        " exited without reaching " + siteText(waiting->site) +
                        ", where thread " +
                        triple(waiting->x, waiting->y, waiting->z) +
                        " and others wait");
        return false;
      }
      ++session.impl->epoch;
      for (Thread &t : threads)
        t.state = State::Runnable;
      continue;
    }
    // Stuck: some threads wait at a barrier, others at a shuffle whose warp
    // is not complete.
    const Thread *a = nullptr, *b = nullptr;
    for (const Thread &t : threads) {
      if (t.state == State::Barrier && !a)
        a = &t;
      if (t.state == State::Shuffle && !b)
        b = &t;
    }
    if (a && b)
      failInScheduler("deadlock: " + where(*b) + " waits at " +
                      siteText(b->site) + " for lanes of its warp, while " +
                      "thread " + triple(a->x, a->y, a->z) + " waits at " +
                      siteText(a->site));
    else
      failInScheduler("deadlock in kernel " + kernel);
    return false;
  }
  flushInstances();
  return true;
}

void Launch::resolveShuffle(size_t first, size_t last) {
  // Every live lane of the warp waits at a shuffle: the same one, with the
  // same member mask, naming only lanes that take part.
  const Thread *lead = nullptr;
  for (size_t i = first; i < last; ++i) {
    const Thread &t = threads[i];
    if (t.state != State::Shuffle)
      continue;
    if (!lead) {
      lead = &t;
      continue;
    }
    if (t.site != lead->site || t.shflMask != lead->shflMask ||
        t.shflKind != lead->shflKind) {
      failInScheduler("divergent shuffle: " + where(t) + " waits at " +
                      siteText(t.site) + " while lane " +
                      std::to_string(lead->linear % 32) + " waits at " +
                      siteText(lead->site));
      return;
    }
  }
  uint32_t mask = uint32_t(lead->shflMask);
  for (size_t i = first; i < last; ++i) {
    uint32_t lane = uint32_t(i - first);
    if ((mask >> lane & 1) && threads[i].state != State::Shuffle) {
      failInScheduler("shuffle: lane " + std::to_string(lane) +
                      " is in the member mask of " + siteText(lead->site) +
                      " but " + where(threads[i]) + " has exited");
      return;
    }
  }
  // PTX ISA, shfl.sync: the source lane j and whether it is in range.
  std::vector<int64_t> results(last - first);
  for (size_t i = first; i < last; ++i) {
    Thread &t = threads[i];
    int32_t lane = int32_t(i - first);
    int32_t b = t.shflOffset & 31;
    int32_t c = t.shflClamp & 31;
    int32_t segmask = (t.shflClamp >> 8) & 31;
    int32_t maxLane = (lane & segmask) | (c & ~segmask);
    int32_t minLane = lane & segmask;
    int32_t j = lane;
    bool pval = false;
    switch (t.shflKind) {
    case 0: // up
      j = lane - b;
      pval = j >= maxLane;
      break;
    case 1: // down
      j = lane + b;
      pval = j <= maxLane;
      break;
    case 2: // bfly
      j = lane ^ b;
      pval = j <= maxLane;
      break;
    default: // idx
      j = minLane | (b & ~segmask);
      pval = j <= maxLane;
      break;
    }
    if (!pval)
      j = lane;
    size_t source = first + size_t(j);
    if (source >= last || !(mask >> j & 1) ||
        threads[source].state != State::Shuffle) {
      failInScheduler("shuffle: " + where(t) + " reads lane " +
                      std::to_string(j) + ", which does not take part in " +
                      siteText(t.site));
      return;
    }
    results[i - first] =
        int64_t(uint32_t(threads[source].shflValue)) | (int64_t(pval) << 32);
  }
  for (size_t i = first; i < last; ++i) {
    threads[i].shflResult = results[i - first];
    threads[i].state = State::Runnable;
  }
}

void Launch::access(void *p, uint64_t bytes, uint64_t align, int32_t site,
                    uint32_t pieceBase) {
  Thread &t = *current;
  bool store = site >= 0 && size_t(site) < session.siteStore.size() &&
               session.siteStore[site];
  const char *verb = store ? "store" : "load";
  auto describe = [&] {
    return std::string(verb) + " of " + std::to_string(bytes) + " bytes at " +
           hex(p) + " (" + siteText(site) + ")";
  };
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (align > 1 && a % align != 0) {
    recordFailure(where(t) + ": misaligned " + describe() +
                  ": the instruction promises " + std::to_string(align) +
                  "-byte alignment");
    killCurrent();
  }
  uintptr_t sharedBegin = reinterpret_cast<uintptr_t>(sharedBase);
  bool isShared =
      sharedSize && a >= sharedBegin && a < sharedBegin + sharedSize;
  if (isShared) {
    if (a + bytes > sharedBegin + sharedSize) {
      recordFailure(where(t) + ": out-of-bounds shared-memory " + describe() +
                    ": " +
                    std::to_string(a + bytes - sharedBegin - sharedSize) +
                    " bytes past the end of the block's " +
                    std::to_string(sharedSize) + " bytes");
      killCurrent();
    }
    uint64_t epoch = session.impl->epoch;
    int32_t me = int32_t(t.linear);
    for (uint64_t k = 0; k < bytes; ++k) {
      Shadow &s = shadow[a - sharedBegin + k];
      if (s.epoch != epoch)
        s = Shadow{epoch, -1, -1};
      int32_t other = -1;
      if (s.writer >= 0 && s.writer != me)
        other = s.writer;
      else if (store && s.reader != -1 && s.reader != me)
        other = s.reader;
      if (other != -1) {
        {
          std::string who = other >= 0 ? "thread " + triple(threads[other].x,
                                                            threads[other].y,
                                                            threads[other].z)
                                       : std::string("other threads");
          recordFailure("shared-memory race: " + where(t) + ": " + describe() +
                        " touches byte " + std::to_string(a - sharedBegin + k) +
                        ", which " + who + " " +
                        (s.writer >= 0 && s.writer != me ? "wrote" : "read") +
                        " with no barrier between");
        }
        killCurrent();
      }
      if (store)
        s.writer = me;
      else if (s.reader == -1)
        s.reader = me;
      else if (s.reader != me)
        s.reader = -2;
    }
  } else {
    auto &buffers = session.impl->buffers;
    auto it = buffers.upper_bound(a);
    if (it == buffers.begin()) {
      recordFailure(where(t) + ": out-of-bounds " + describe() +
                    ": not in any device buffer");
      killCurrent();
    }
    --it;
    uintptr_t begin = it->first;
    size_t size = it->second;
    if (a + bytes > begin + size) {
      if (a >= begin + size && a - (begin + size) >= 4096) {
        recordFailure(where(t) + ": out-of-bounds " + describe() +
                      ": not in any device buffer");
        killCurrent();
      }
      {
        recordFailure(where(t) + ": out-of-bounds " + describe() + ": " +
                      std::to_string(a + bytes - begin - size) +
                      " bytes past the end of a " + std::to_string(size) +
                      "-byte device buffer");
        killCurrent();
      }
    }
    (store ? session.impl->bytesWritten : session.impl->bytesRead) += bytes;
  }
  if (!session.profiling || site < 0)
    return;
  // Pieces as NVPTX emits them: at most 16 bytes, at most the alignment.
  uint64_t piece =
      std::min<uint64_t>({bytes, 16, std::max<uint64_t>(align, 1)});
  while (piece & (piece - 1))
    piece &= piece - 1;
  uint32_t count = t.counts[site];
  for (uint64_t off = 0, k = 0; off < bytes; off += piece, ++k) {
    Instance &in = instances[InstanceKey{t.linear / 32, uint32_t(site),
                                         uint32_t(pieceBase + k), count}];
    in.shared = isShared;
    in.pieceBytes = uint32_t(piece);
    in.ranges.push_back({isShared ? a + off - sharedBegin : a + off,
                         uint32_t(std::min<uint64_t>(piece, bytes - off))});
  }
}

void Launch::flushInstances() {
  for (auto &[key, in] : instances) {
    SiteStats &s = session.siteStats[{kernel, key.site}];
    s.kernel = kernel;
    ++s.requests;
    std::sort(in.ranges.begin(), in.ranges.end());
    if (!in.shared) {
      // Distinct bytes (merged ranges) and distinct sectors.
      uint64_t unique = 0, sectors = 0, end = 0, next = 0;
      for (auto [a, n] : in.ranges) {
        uint64_t from = std::max<uint64_t>(a, end);
        if (a + n > from)
          unique += a + n - from;
        end = std::max<uint64_t>(end, a + n);
        uint64_t first = std::max<uint64_t>(a / 32, next);
        uint64_t last = (a + n - 1) / 32;
        if (first <= last) {
          sectors += last - first + 1;
          next = last + 1;
        }
        s.bytes += n;
      }
      s.sectors += sectors;
      s.minSectors += (unique + 31) / 32;
      continue;
    }
    // Shared memory: lanes in phases of 128 bytes (32 lanes of 4 bytes, 16
    // of 8, 8 of 16); a phase takes as many wavefronts as the most distinct
    // 4-byte words one bank serves.
    uint32_t perPhase =
        std::max<uint32_t>(1, 128 / std::max(4u, in.pieceBytes));
    uint64_t ideal = 0, waves = 0;
    for (size_t p = 0; p < in.ranges.size(); p += perPhase) {
      std::map<uint32_t, std::vector<uint64_t>> banks;
      for (size_t i = p; i < std::min(in.ranges.size(), p + perPhase); ++i) {
        auto [a, n] = in.ranges[i];
        s.bytes += n;
        for (uint64_t w = a / 4; w <= (a + n - 1) / 4; ++w) {
          auto &words = banks[uint32_t(w % 32)];
          if (std::find(words.begin(), words.end(), w) == words.end())
            words.push_back(w);
        }
      }
      size_t most = 1;
      for (auto &[bank, words] : banks)
        most = std::max(most, words.size());
      waves += most;
      ++ideal;
    }
    s.wavefronts += waves;
    s.idealWavefronts += ideal;
  }
  instances.clear();
}

Launch &launch() { return *running; }

} // namespace

Session::Session(std::vector<std::string> sites, std::vector<bool> stores)
    : impl(std::make_unique<Impl>()), siteText(std::move(sites)),
      siteStore(std::move(stores)) {}

Session::~Session() {
  for (auto [p, n] : impl->buffers)
    std::free(reinterpret_cast<void *>(p));
}

void *Session::allocate(size_t bytes) {
  size_t rounded = std::max<size_t>(256, (bytes + 255) / 256 * 256);
  void *p = std::aligned_alloc(256, rounded);
  if (!p)
    return nullptr;
  std::memset(p, 0xA5, rounded); // as undefined as device memory
  impl->buffers[reinterpret_cast<uintptr_t>(p)] = bytes;
  return p;
}

bool Session::release(void *p) {
  auto it = impl->buffers.find(reinterpret_cast<uintptr_t>(p));
  if (it == impl->buffers.end())
    return false;
  impl->buffers.erase(it);
  std::free(p);
  return true;
}

std::string Session::takeError() {
  std::string e = std::move(impl->firstError);
  impl->firstError.clear();
  return e;
}

void Session::clearProfile() {
  siteStats.clear();
  kernelStats.clear();
  impl->bytesRead = impl->bytesWritten = 0;
}

uint64_t Session::globalBytesRead() const { return impl->bytesRead; }
uint64_t Session::globalBytesWritten() const { return impl->bytesWritten; }

static std::string percent(uint64_t num, uint64_t den) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f%%",
                den ? 100.0 * double(num) / double(den) : 100.0);
  return buffer;
}

std::string Session::report(uint64_t compulsoryRead,
                            uint64_t compulsoryWritten) const {
  std::string out;
  for (auto &[kernel, k] : kernelStats) {
    SiteStats loads, stores, sharedAll;
    for (auto &[key, s] : siteStats) {
      if (key.first != kernel)
        continue;
      SiteStats &sum = s.idealWavefronts       ? sharedAll
                       : siteStore[key.second] ? stores
                                               : loads;
      sum.requests += s.requests;
      sum.sectors += s.sectors;
      sum.minSectors += s.minSectors;
      sum.bytes += s.bytes;
      sum.wavefronts += s.wavefronts;
      sum.idealWavefronts += s.idealWavefronts;
    }
    out += "kernel " + kernel + ": " + std::to_string(k.launches) +
           " launches, " + std::to_string(k.blocks) + " blocks, " +
           std::to_string(k.threads) + " threads\n";
    auto line = [&](const char *what, const SiteStats &s) {
      out += std::string("  ") + what + ": " + std::to_string(s.requests) +
             " requests, " + std::to_string(s.sectors) + " sectors, minimum " +
             std::to_string(s.minSectors) + ", efficiency " +
             percent(s.minSectors, s.sectors) + ", " + std::to_string(s.bytes) +
             " bytes\n";
    };
    line("global loads", loads);
    line("global stores", stores);
    out +=
        "  shared: " + std::to_string(sharedAll.requests) + " requests, " +
        std::to_string(sharedAll.wavefronts) + " wavefronts, bank conflicts " +
        std::to_string(sharedAll.wavefronts - sharedAll.idealWavefronts) + "\n";
    for (auto &[key, s] : siteStats) {
      if (key.first != kernel)
        continue;
      out += "    site " + std::to_string(key.second) + " (" +
             siteText[key.second] + "): " + std::to_string(s.requests) +
             " requests, ";
      if (s.idealWavefronts)
        out += "bank conflicts " +
               std::to_string(s.wavefronts - s.idealWavefronts) + "\n";
      else
        out += "efficiency " + percent(s.minSectors, s.sectors) + "\n";
    }
  }
  out += "global bytes read " + std::to_string(globalBytesRead()) +
         " (inputs " + std::to_string(compulsoryRead) + "), written " +
         std::to_string(globalBytesWritten()) + " (results " +
         std::to_string(compulsoryWritten) + ")\n";
  return out;
}

Activation::Activation(Session &session) : previous(active) {
  active = &session;
}
Activation::~Activation() { active = previous; }

} // namespace mxq::simt

using namespace mxq::simt;

namespace {
Session *session() { return active; }
int streamToken;
} // namespace

extern "C" {

void mxq_emu_launch(void (*thunk)(void **), const char *name, int64_t gx,
                    int64_t gy, int64_t gz, int64_t bx, int64_t by, int64_t bz,
                    int64_t sharedBytes, void **params) {
  Session *s = session();
  if (!s || !s->impl->firstError.empty())
    return; // a failed launch ends the call's device work
  Launch l(*s);
  l.kernel = name;
  l.thunk = thunk;
  l.params = params;
  if (gx == 0 || gy == 0 || gz == 0)
    return; // an empty grid: nothing to run, as GPURuntime's launch does
  int64_t dims[6] = {gx, gy, gz, bx, by, bz};
  for (int64_t d : dims)
    if (d <= 0 || d > (int64_t(1) << 31)) {
      s->impl->fail("kernel " + l.kernel +
                    " launched with a grid or block "
                    "dimension of " +
                    std::to_string(d));
      return;
    }
  if (bx * by * bz > 1024) {
    s->impl->fail("kernel " + l.kernel + " launched with " +
                  std::to_string(bx * by * bz) +
                  " threads per block (CUDA's limit is 1024)");
    return;
  }
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = uint32_t(dims[i]);
    l.block[i] = uint32_t(dims[3 + i]);
  }
  l.sharedSize = size_t(sharedBytes);
  l.sharedStorage.resize(l.sharedSize + 256);
  l.sharedBase = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(l.sharedStorage.data()) + 255) &
      ~uintptr_t(255));
  l.shadow.resize(size_t(sharedBytes));
  size_t n = size_t(bx * by * bz);
  l.threads.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Thread &t = l.threads[i];
    t.linear = uint32_t(i);
    t.x = uint32_t(i % size_t(bx));
    t.y = uint32_t(i / size_t(bx) % size_t(by));
    t.z = uint32_t(i / size_t(bx * by));
    t.counts.assign(s->siteText.size(), 0);
  }
  Launch *previous = running;
  running = &l;
  KernelStats &k = s->kernelStats[l.kernel];
  ++k.launches;
  for (uint32_t z = 0; z < l.grid[2] && !l.failed; ++z)
    for (uint32_t y = 0; y < l.grid[1] && !l.failed; ++y)
      for (uint32_t x = 0; x < l.grid[0] && !l.failed; ++x) {
        l.blockId[0] = x;
        l.blockId[1] = y;
        l.blockId[2] = z;
        if (!l.runBlock())
          break;
        ++k.blocks;
        k.threads += n;
      }
  for (Thread &t : l.threads)
    if (t.state == State::Done || t.state == State::Runnable)
      giveStack(t.stack);
  // The stacks of abandoned fibers (killed or stuck) are not reused: their
  // frames never unwound. They are unmapped.
  for (Thread &t : l.threads)
    if (t.stack && t.state != State::Done && t.state != State::Runnable)
      munmap(t.stack, kStackBytes);
  running = previous;
}

int32_t mxq_emu_sreg(int32_t which) {
  Launch &l = launch();
  Thread &t = *l.current;
  switch (which) {
  case 0:
    return int32_t(t.x);
  case 1:
    return int32_t(t.y);
  case 2:
    return int32_t(t.z);
  case 3:
  case 4:
  case 5:
    return int32_t(l.block[which - 3]);
  case 6:
  case 7:
  case 8:
    return int32_t(l.blockId[which - 6]);
  case 9:
  case 10:
  case 11:
    return int32_t(l.grid[which - 9]);
  case 12:
    return int32_t(t.linear % 32);
  default:
    return 32;
  }
}

void mxq_emu_barrier(int32_t site) {
  Launch &l = launch();
  Thread &t = *l.current;
  t.state = State::Barrier;
  t.site = site;
  l.yieldToScheduler(t);
}

int64_t mxq_emu_shfl(int32_t kind, int32_t mask, int32_t value, int32_t offset,
                     int32_t clamp, int32_t site) {
  Launch &l = launch();
  Thread &t = *l.current;
  t.state = State::Shuffle;
  t.site = site;
  t.shflKind = kind;
  t.shflMask = mask;
  t.shflValue = value;
  t.shflOffset = offset;
  t.shflClamp = clamp;
  l.yieldToScheduler(t);
  return t.shflResult;
}

void mxq_emu_access(void *p, int64_t bytes, int64_t align, int32_t site) {
  Launch &l = launch();
  l.access(p, uint64_t(bytes), uint64_t(align), site, 0);
  if (site >= 0 && size_t(site) < l.current->counts.size())
    ++l.current->counts[site];
}

void mxq_emu_access_masked(void *p, int64_t elementBytes, int64_t lanes,
                           uint64_t mask, int64_t align, int32_t site,
                           int64_t laneBase, int32_t last) {
  Launch &l = launch();
  for (int64_t i = 0; i < lanes && i < 64; ++i)
    if (mask >> i & 1)
      l.access(static_cast<char *>(p) + i * elementBytes,
               uint64_t(elementBytes), uint64_t(align), site,
               uint32_t(laneBase + i));
  // An instruction of more than 64 lanes comes in chunks; it counts once.
  if (last && site >= 0 && size_t(site) < l.current->counts.size())
    ++l.current->counts[site];
}

void *mxq_emu_shared(int64_t offset) { return launch().sharedBase + offset; }

} // extern "C"

// The mgpu* calls of the host code, on host memory (the JIT resolves the
// names to these; they are not exported, so the CUDA runtime's can coexist).
namespace emu {
void *mgpuStreamCreate() { return &streamToken; }
void mgpuStreamDestroy(void *) {}
void mgpuStreamSynchronize(void *) {}
void mgpuStreamWaitEvent(void *, void *) {}
void *mgpuEventCreate() { return &streamToken; }
void mgpuEventDestroy(void *) {}
void mgpuEventSynchronize(void *) {}
void mgpuEventRecord(void *, void *) {}

void *mgpuMemAlloc(uint64_t size, void *, bool) {
  Session *s = session();
  return s ? s->allocate(size) : nullptr;
}

void mgpuMemFree(void *ptr, void *) {
  Session *s = session();
  if (s && ptr && !s->release(ptr))
    s->impl->fail("mgpuMemFree of " + hex(ptr) +
                  ", which is not a device buffer");
}

void mgpuMemcpy(void *dst, void *src, size_t size, void *) {
  std::memmove(dst, src, size);
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *) {
  auto *d = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    d[i] = value;
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *) {
  auto *d = static_cast<uint16_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    d[i] = value;
}

} // namespace emu

// libdevice's exact functions (see isModelledLibdevice in
// EmulateKernels.cpp), on the host's libm.
namespace libdevice {
float fabsf_(float x) { return std::fabs(x); }
double fabs_(double x) { return std::fabs(x); }
float floorf_(float x) { return std::floor(x); }
double floor_(double x) { return std::floor(x); }
float ceilf_(float x) { return std::ceil(x); }
double ceil_(double x) { return std::ceil(x); }
float truncf_(float x) { return std::trunc(x); }
double trunc_(double x) { return std::trunc(x); }
float rintf_(float x) { return std::nearbyint(x); }
double rint_(double x) { return std::nearbyint(x); }
float roundf_(float x) { return std::round(x); }
double round_(double x) { return std::round(x); }
float fmaxf_(float a, float b) { return std::fmax(a, b); }
double fmax_(double a, double b) { return std::fmax(a, b); }
float fminf_(float a, float b) { return std::fmin(a, b); }
double fmin_(double a, double b) { return std::fmin(a, b); }
float copysignf_(float a, float b) { return std::copysign(a, b); }
double copysign_(double a, double b) { return std::copysign(a, b); }
float sqrtf_(float x) { return std::sqrt(x); }
double sqrt_(double x) { return std::sqrt(x); }
float fmaf_(float a, float b, float c) { return std::fma(a, b, c); }
double fma_(double a, double b, double c) { return std::fma(a, b, c); }

/// The host compiler's f32 -> bf16 helper (compiler-rt's and libgcc's
/// `__truncsfbf2`). The emulated kernels hold no f32 -> bf16 conversion of
/// their own; LLVM's x86 backend calls this where it moves a bf16 value
/// through an f32 register (a bf16 vector's insertelement or phi), which
/// on the GPU is a 16-bit move. So: round to nearest even (exact for what
/// it is given, a bf16 widened), and a NaN keeps its top 16 bits, sign and
/// payload, as the 16-bit move does (the library helper would set its
/// quiet bit). The bf16 is returned in the low 16 bits of a float
/// register, where the x86-64 and AArch64 ABIs return `__bf16`.
float truncsfbf2_(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  uint32_t r = (u & 0x7FFFFFFFu) > 0x7F800000u
                   ? u >> 16
                   : (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
  r &= 0xFFFFu;
  float out;
  std::memcpy(&out, &r, 4);
  return out;
}
} // namespace libdevice

std::vector<std::pair<const char *, void *>> mxq::simt::symbols() {
#define SYM(name)                                                              \
  { #name, reinterpret_cast < void *>(&name) }
#define EMU(name)                                                              \
  { #name, reinterpret_cast < void *>(&emu::name) }
  return {SYM(mxq_emu_launch),       SYM(mxq_emu_sreg),
          SYM(mxq_emu_barrier),      SYM(mxq_emu_shfl),
          SYM(mxq_emu_access),       SYM(mxq_emu_access_masked),
          SYM(mxq_emu_shared),       SYM(mxq_emu_cvt_f8x2),
          SYM(mxq_emu_cvt_f6x2),     SYM(mxq_emu_cvt_f4x2),
          SYM(mxq_emu_cvt_ue8m0x2),  EMU(mgpuStreamCreate),
          EMU(mgpuStreamDestroy),    EMU(mgpuStreamSynchronize),
          EMU(mgpuStreamWaitEvent),  EMU(mgpuEventCreate),
          EMU(mgpuEventDestroy),     EMU(mgpuEventSynchronize),
          EMU(mgpuEventRecord),      EMU(mgpuMemAlloc),
          EMU(mgpuMemFree),          EMU(mgpuMemcpy),
          EMU(mgpuMemset32),         EMU(mgpuMemset16),
#define NV(name, fn) {"__nv_" #name, reinterpret_cast<void *>(&libdevice::fn)}
          NV(fabsf, fabsf_),         NV(fabs, fabs_),
          NV(floorf, floorf_),       NV(floor, floor_),
          NV(ceilf, ceilf_),         NV(ceil, ceil_),
          NV(truncf, truncf_),       NV(trunc, trunc_),
          NV(rintf, rintf_),         NV(rint, rint_),
          NV(roundf, roundf_),       NV(round, round_),
          NV(nearbyintf, rintf_),    NV(nearbyint, rint_),
          NV(fmaxf, fmaxf_),         NV(fmax, fmax_),
          NV(fminf, fminf_),         NV(fmin, fmin_),
          NV(copysignf, copysignf_), NV(copysign, copysign_),
          NV(sqrtf, sqrtf_),         NV(sqrt, sqrt_),
          NV(fmaf, fmaf_),           NV(fma, fma_),
          {"__truncsfbf2", reinterpret_cast<void *>(&libdevice::truncsfbf2_)}};
#undef NV
#undef SYM
#undef EMU
}
