//===- StandaloneMain.cpp - run a fuzz target without libFuzzer -----------===//
//
// Where mxq is not built with clang's libFuzzer (-DMXQ_LIBFUZZER=ON), each
// fuzz target is still an executable: it runs LLVMFuzzerTestOneInput on
// every file named (or in a directory named), which replays a corpus and
// the crash reproducers, and with -runs=N on N inputs of random bytes
// (-seed=S, -max_len=L), the bounded run of the test suite. A target with
// its own mutator (LLVMFuzzerCustomMutator, as the structured one has)
// gets libFuzzer's loop instead of fresh random bytes: each input is a
// mutation of one run before (the replayed files, or the first random
// input), made by that mutator, which calls LLVMFuzzerMutate (defined here:
// byte flips, insertions, erasures and a new random tail). Other libFuzzer
// flags are accepted and ignored, so one command line serves both builds.
// The count is printed with the time and the rate.
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// A target's own flags, as libFuzzer hands them over (optional).
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);
extern "C" __attribute__((weak)) size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                        unsigned seed);

// The random source of a run (-seed=S), the mutator's too.
static std::mt19937_64 &rng() {
  static std::mt19937_64 r(1);
  return r;
}

/// libFuzzer's basic mutator, as a custom mutator calls it: one change of
/// `data` (at most `maxSize` bytes), the new size.
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize) {
  std::mt19937_64 &r = rng();
  switch (size == 0 ? 1 : r() % 4) {
  case 0: // a few bytes changed
    for (size_t k = 1 + r() % 4; k > 0; --k)
      data[r() % size] = uint8_t(r());
    return size;
  case 1: { // a new random tail from a random offset
    size_t from = size == 0 ? 0 : r() % size;
    size_t to = from + r() % (maxSize - from + 1);
    for (size_t i = from; i < to; ++i)
      data[i] = uint8_t(r());
    return to;
  }
  case 2: { // a byte inserted
    if (size >= maxSize)
      return size;
    size_t at = r() % (size + 1);
    std::memmove(data + at + 1, data + at, size - at);
    data[at] = uint8_t(r());
    return size + 1;
  }
  default: { // a byte erased
    size_t at = r() % size;
    std::memmove(data + at, data + at + 1, size - at - 1);
    return size - 1;
  }
  }
}

// The input being run, written to ./crash-standalone when the target aborts
// (libFuzzer keeps its crash inputs the same way).
static const uint8_t *current = nullptr;
static size_t currentSize = 0;

static void saveCrash(int sig) {
  int fd = open("crash-standalone", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    if (current && currentSize)
      (void)!write(fd, current, currentSize);
    close(fd);
  }
  const char msg[] = "the input is in ./crash-standalone\n";
  (void)!write(2, msg, sizeof msg - 1);
  signal(sig, SIG_DFL);
  raise(sig);
}

static int runOne(const uint8_t *data, size_t size) {
  current = data;
  currentSize = size;
  return LLVMFuzzerTestOneInput(data, size);
}

// What a custom mutator mutates: the replayed files, kept, and up to 256
// inputs run since, the older replaced at random. An input the target
// returns -1 for (libFuzzer's "do not add it to the corpus": a text that
// does not parse) is not kept, so the pool does not decay into inputs that
// no mutation brings back.
static std::vector<std::vector<uint8_t>> pool;
static size_t seeds = 0;
static void remember(std::vector<uint8_t> bytes, int result, bool seed) {
  if (!LLVMFuzzerCustomMutator || result == -1)
    return;
  if (seed)
    ++seeds;
  if (seed || pool.size() < seeds + 256)
    pool.push_back(std::move(bytes));
  else
    pool[seeds + rng()() % (pool.size() - seeds)] = std::move(bytes);
}

static void runFile(const std::filesystem::path &path, size_t &count) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  int result = runOne(bytes.data(), bytes.size());
  ++count;
  remember(std::move(bytes), result, /*seed=*/true);
}

int main(int argc, char **argv) {
  signal(SIGABRT, saveCrash);
  signal(SIGSEGV, saveCrash);
  if (LLVMFuzzerInitialize && LLVMFuzzerInitialize(&argc, &argv) != 0)
    return 2;
  long runs = 0, maxLen = 4096;
  unsigned long seed = 1;
  size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (std::strncmp(a, "-runs=", 6) == 0) {
      runs = std::atol(a + 6);
    } else if (std::strncmp(a, "-seed=", 6) == 0) {
      seed = std::strtoul(a + 6, nullptr, 10);
    } else if (std::strncmp(a, "-max_len=", 9) == 0) {
      maxLen = std::atol(a + 9);
    } else if (a[0] == '-') {
      continue; // a libFuzzer flag
    } else {
      std::error_code ec;
      std::filesystem::path p(a);
      if (std::filesystem::is_directory(p, ec)) {
        for (const auto &e : std::filesystem::recursive_directory_iterator(p))
          if (e.is_regular_file())
            runFile(e.path(), count);
      } else if (std::filesystem::is_regular_file(p, ec)) {
        runFile(p, count);
      } else {
        std::fprintf(stderr, "%s: no file or directory '%s'\n", argv[0], a);
        return 2;
      }
    }
  }
  rng().seed(seed);
  auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> bytes;
  for (long r = 0; r < runs; ++r) {
    if (LLVMFuzzerCustomMutator && !pool.empty()) {
      bytes = pool[rng()() % pool.size()];
      size_t size = bytes.size();
      bytes.resize(std::max<size_t>(maxLen, size));
      size = LLVMFuzzerCustomMutator(bytes.data(), size, bytes.size(),
                                     unsigned(rng()()));
      bytes.resize(size);
    } else {
      bytes.resize(rng()() % (maxLen + 1));
      for (uint8_t &b : bytes)
        b = uint8_t(rng()());
    }
    int result = runOne(bytes.data(), bytes.size());
    ++count;
    remember(bytes, result, /*seed=*/false);
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::printf("%s: %zu inputs run, no crash (random ones: %ld in %.1f s, "
              "%.0f a second)\n",
              argv[0], count, runs, seconds,
              seconds > 0 ? double(runs) / seconds : 0.0);
  return 0;
}
