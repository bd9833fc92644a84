//===- StandaloneMain.cpp - run a fuzz target without libFuzzer -----------===//
//
// Where mxq is not built with clang's libFuzzer (-DMXQ_LIBFUZZER=ON), each
// fuzz target is still an executable: it runs LLVMFuzzerTestOneInput on
// every file named (or in a directory named), which replays a corpus and
// the crash reproducers, and with -runs=N on N inputs of random bytes
// (-seed=S, -max_len=L), the bounded run of the test suite. Other
// libFuzzer flags are accepted and ignored, so one command line serves
// both builds.
//
//===----------------------------------------------------------------------===//
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

static void runOne(const uint8_t *data, size_t size) {
  current = data;
  currentSize = size;
  LLVMFuzzerTestOneInput(data, size);
}

static void runFile(const std::filesystem::path &path, size_t &count) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  runOne(bytes.data(), bytes.size());
  ++count;
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
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes;
  for (long r = 0; r < runs; ++r) {
    bytes.resize(rng() % (maxLen + 1));
    for (uint8_t &b : bytes)
      b = uint8_t(rng());
    runOne(bytes.data(), bytes.size());
    ++count;
  }
  std::printf("%s: %zu inputs run, no crash\n", argv[0], count);
  return 0;
}
