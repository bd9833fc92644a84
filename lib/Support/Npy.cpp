//===- Npy.cpp - reading and writing NumPy .npy files ---------------------===//
#include "mxq/Support/Npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace mxq::npy {

unsigned itemSize(const std::string &descr) {
  if (descr.size() < 3)
    return 0;
  char kind = descr[1];
  if (kind != 'f' && kind != 'u' && kind != 'i' && kind != 'b')
    return 0;
  if (descr.size() > 4) // no dtype has more than two digits of bytes
    return 0;
  unsigned size = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i])))
      return 0;
    size = size * 10 + unsigned(descr[i] - '0');
  }
  return size;
}

/// Finds `'key': value` in the header dict and returns the raw value text.
static bool findKey(const std::string &header, const std::string &key,
                    std::string &value) {
  size_t pos = header.find("'" + key + "'");
  if (pos == std::string::npos)
    return false;
  pos = header.find(':', pos);
  if (pos == std::string::npos)
    return false;
  ++pos;
  while (pos < header.size() && header[pos] == ' ')
    ++pos;
  size_t end = pos;
  if (header[pos] == '(') {
    end = header.find(')', pos);
    if (end == std::string::npos)
      return false;
    ++end;
  } else if (header[pos] == '\'') {
    end = header.find('\'', pos + 1);
    if (end == std::string::npos)
      return false;
    ++end;
  } else {
    while (end < header.size() && header[end] != ',' && header[end] != '}')
      ++end;
  }
  value = header.substr(pos, end - pos);
  return true;
}

namespace {
/// What the header of a .npy file says.
struct Header {
  size_t dataStart = 0; ///< offset of the data: magic, lengths and header
  size_t count = 0;     ///< data bytes the shape and dtype need
};

/// Where the header ends, from the first bytes of a file of `total` bytes
/// (`prefix` holds at least its first 12 bytes or the whole file).
bool headerEnd(const std::string &prefix, uint64_t total,
               const std::function<bool(const std::string &)> &fail,
               size_t &headerStart, size_t &headerLen) {
  if (total < 10 || prefix.compare(0, 6, "\x93NUMPY") != 0)
    return fail("it does not start with the .npy magic string");
  unsigned major = static_cast<uint8_t>(prefix[6]);
  if (major == 1) {
    headerLen = static_cast<uint8_t>(prefix[8]) |
                (static_cast<uint8_t>(prefix[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (total < 12)
      return fail("the header is truncated");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(static_cast<uint8_t>(prefix[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return fail("format version " + std::to_string(major) +
                " is not supported");
  }
  if (headerStart + headerLen > total)
    return fail("the header is truncated");
  return true;
}

/// Parses the header (`bytes` holds the file up to at least its end) of a
/// file of `total` bytes into `array` (all but its data) and `header`.
bool parseHeader(const std::string &bytes, uint64_t total,
                 const std::function<bool(const std::string &)> &fail,
                 Array &array, Header &out) {
  size_t headerStart, headerLen;
  if (!headerEnd(bytes, total, fail, headerStart, headerLen))
    return false;
  std::string header = bytes.substr(headerStart, headerLen);
  std::string descr, fortran, shape;
  if (!findKey(header, "descr", descr) ||
      !findKey(header, "fortran_order", fortran) ||
      !findKey(header, "shape", shape))
    return fail("the header lacks descr, fortran_order or shape");
  if (descr.size() < 2 || descr.front() != '\'')
    return fail("the dtype is not a simple type (structured arrays are not "
                "supported)");
  array.descr = descr.substr(1, descr.size() - 2);
  if (fortran != "False")
    return fail("it is in Fortran order; write it in C order");
  array.shape.clear();
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    return fail("the shape '" + shape + "' is not a tuple");
  std::string dims = shape.substr(1, shape.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos)
      continue;
    item = item.substr(b, item.find_last_not_of(' ') - b + 1);
    int64_t dim = 0;
    for (char c : item) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return fail("the shape '" + shape + "' is malformed");
      if (__builtin_mul_overflow(dim, int64_t(10), &dim) ||
          __builtin_add_overflow(dim, int64_t(c - '0'), &dim))
        return fail("a dimension of the shape '" + shape +
                    "' does not fit in 64 bits");
    }
    array.shape.push_back(dim);
  }
  unsigned size = itemSize(array.descr);
  if (size == 0)
    return fail("the dtype '" + array.descr + "' is not supported");
  if (size > 1 && array.descr[0] == '>')
    return fail("it is big-endian; write it little-endian");
  size_t count = size;
  for (int64_t d : array.shape)
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &count))
      return fail("its shape " + shape +
                  " needs more bytes than a 64-bit size can count");
  out.dataStart = headerStart + headerLen;
  out.count = count;
  if (total - out.dataStart != count)
    return fail("it holds " + std::to_string(total - out.dataStart) +
                " data bytes, but its shape and dtype need " +
                std::to_string(count));
  return true;
}
} // namespace

bool read(const std::string &path, Array &array, std::string &error) {
  // Only regular files: a directory or a device (/dev/zero, a pipe) would
  // fail to read or never end.
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    error = "cannot open '" + path + "'";
    return false;
  }
  if (!std::filesystem::is_regular_file(status)) {
    error =
        "'" + path + "' is not a regular file" +
        (std::filesystem::is_directory(status) ? " (it is a directory)" : "");
    return false;
  }
  uint64_t total = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  auto fail = [&](const std::string &why) {
    error = "'" + path + "' is not a valid .npy file: " + why;
    return false;
  };
  // The header first, then the data straight into the array's own buffer:
  // a file is never held twice (issue 16: peak memory).
  auto readMore = [&](std::string &bytes, size_t upTo) {
    size_t have = bytes.size();
    bytes.resize(upTo);
    in.read(bytes.data() + have, std::streamsize(upTo - have));
    return bool(in);
  };
  std::string prefix;
  if (!readMore(prefix, size_t(std::min<uint64_t>(total, 12))))
    return fail("it cannot be read");
  size_t headerStart, headerLen;
  if (!headerEnd(prefix, total, fail, headerStart, headerLen))
    return false;
  if (!readMore(prefix, headerStart + headerLen))
    return fail("it cannot be read");
  Header header;
  if (!parseHeader(prefix, total, fail, array, header))
    return false;
  array.data.resize(header.count);
  in.read(reinterpret_cast<char *>(array.data.data()),
          std::streamsize(header.count));
  if (!in || size_t(in.gcount()) != header.count)
    return fail("its data cannot be read");
  return true;
}

bool parse(const std::string &content, const std::string &name, Array &array,
           std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "'" + name + "' is not a valid .npy file: " + why;
    return false;
  };
  Header header;
  if (!parseHeader(content, content.size(), fail, array, header))
    return false;
  array.data.assign(content.begin() + header.dataStart, content.end());
  return true;
}

bool write(const std::string &path, const Array &array, std::string &error) {
  return write(path, array.descr, array.shape, array.data.data(),
               array.data.size(), error);
}

bool write(const std::string &path, const std::string &descr,
           const std::vector<int64_t> &shape, const uint8_t *data, size_t size,
           std::string &error) {
  std::string shapeText = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    shapeText += std::to_string(shape[i]) +
                 (shape.size() == 1 || i + 1 < shape.size() ? "," : "");
  shapeText += ")";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': " + shapeText +
                       ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  char lenBytes[2] = {char(len & 0xFF), char(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), header.size());
  out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace mxq::npy
