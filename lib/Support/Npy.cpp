//===- Npy.cpp - reading and writing NumPy .npy files ---------------------===//
#include "mxq/Support/Npy.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
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
    error = "'" + path + "' is not a regular file" +
            (std::filesystem::is_directory(status) ? " (it is a directory)"
                                                   : "");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::string content((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  return parse(content, path, array, error);
}

bool parse(const std::string &content, const std::string &name, Array &array,
           std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "'" + name + "' is not a valid .npy file: " + why;
    return false;
  };
  if (content.size() < 10 || content.compare(0, 6, "\x93NUMPY") != 0)
    return fail("it does not start with the .npy magic string");
  unsigned major = static_cast<uint8_t>(content[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<uint8_t>(content[8]) |
                (static_cast<uint8_t>(content[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (content.size() < 12)
      return fail("the header is truncated");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= size_t(static_cast<uint8_t>(content[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return fail("format version " + std::to_string(major) +
                " is not supported");
  }
  if (headerStart + headerLen > content.size())
    return fail("the header is truncated");
  std::string header = content.substr(headerStart, headerLen);
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
  size_t dataStart = headerStart + headerLen;
  if (content.size() - dataStart != count)
    return fail("it holds " + std::to_string(content.size() - dataStart) +
                " data bytes, but its shape and dtype need " +
                std::to_string(count));
  array.data.assign(content.begin() + dataStart, content.end());
  return true;
}

bool write(const std::string &path, const Array &array, std::string &error) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape += std::to_string(array.shape[i]) + (array.shape.size() == 1 || i + 1 < array.shape.size() ? "," : "");
  shape += ")";
  std::string header = "{'descr': '" + array.descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
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
  out.write(reinterpret_cast<const char *>(array.data.data()),
            array.data.size());
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace mxq::npy
