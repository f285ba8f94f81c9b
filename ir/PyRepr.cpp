//===- PyRepr.cpp - Python's string escaping and float repr ---------------===//

#include "pt2ir/ir/PyRepr.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/SwapByteOrder.h"
#include <fmt/format.h>
#include <charconv>
#include <cmath>
#include <cstring>

namespace pt2ir {

static const char HexDigits[] = "0123456789abcdef";

static void appendUnicodeEscape(std::string &out, uint32_t unit) {
  out += "\\u";
  out += HexDigits[(unit >> 12) & 0xF];
  out += HexDigits[(unit >> 8) & 0xF];
  out += HexDigits[(unit >> 4) & 0xF];
  out += HexDigits[unit & 0xF];
}

/// Decodes one UTF-8 (or WTF-8) sequence at `s[i]`; returns its length, or 0
/// when the bytes are not well formed (the byte is then escaped as U+FFFD's
/// stand-in: the raw byte value, which json.dumps could never have produced).
static unsigned decodeUtf8(llvm::StringRef s, size_t i, uint32_t &cp) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  unsigned len;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    cp = c & 0x1F;
    len = 2;
  } else if ((c & 0xF0) == 0xE0) {
    cp = c & 0x0F;
    len = 3;
  } else if ((c & 0xF8) == 0xF0) {
    cp = c & 0x07;
    len = 4;
  } else {
    return 0;
  }
  if (i + len > s.size())
    return 0;
  for (unsigned k = 1; k < len; ++k) {
    unsigned char cc = byte(i + k);
    if ((cc & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  return len;
}

/// The high bit of each byte of `w` that json.dumps escapes ('"', '\\',
/// control characters, DEL and above). Bits above the lowest may be
/// spurious (borrows), so only the lowest set bit locates a byte.
static uint64_t escapeMask(uint64_t w) {
  constexpr uint64_t Ones = 0x0101010101010101ull;
  constexpr uint64_t Highs = 0x8080808080808080ull;
  auto zeroByte = [](uint64_t x) { return (x - Ones) & ~x; };
  uint64_t quote = zeroByte(w ^ (Ones * '"'));
  uint64_t backslash = zeroByte(w ^ (Ones * '\\'));
  uint64_t del = zeroByte(w ^ (Ones * 0x7F));
  uint64_t control = (w - Ones * 0x20) & ~w;
  return (quote | backslash | del | control | w) & Highs;
}

static bool needsEscape(unsigned char c) {
  return c < 0x20 || c >= 0x7F || c == '"' || c == '\\';
}

/// The index of the first byte at or after `i` that needs escaping, or the
/// size; eight bytes at a time.
static size_t plainRunEnd(llvm::StringRef s, size_t i) {
  size_t n = s.size();
  while (n - i >= 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    uint64_t mask = escapeMask(w);
    if (mask) {
      if (llvm::sys::IsLittleEndianHost)
        return i + llvm::countr_zero(mask) / 8;
      break;
    }
    i += 8;
  }
  while (i < n && !needsEscape(static_cast<unsigned char>(s[i])))
    ++i;
  return i;
}

void appendPyJsonString(std::string &out, llvm::StringRef s) {
  // Most strings are short names without anything to escape: one append.
  if (s.size() <= 62 && plainRunEnd(s, 0) == s.size()) {
    char buf[64];
    buf[0] = '"';
    if (!s.empty())
      std::memcpy(buf + 1, s.data(), s.size());
    buf[s.size() + 1] = '"';
    out.append(buf, s.size() + 2);
    return;
  }
  out += '"';
  size_t i = 0, n = s.size();
  while (i < n) {
    // Copy the longest run of bytes that need no escaping in one go.
    size_t start = i;
    i = plainRunEnd(s, i);
    out.append(s.data() + start, i - start);
    if (i == n)
      break;
    unsigned char c = s[i];
    switch (c) {
    case '"': out += "\\\""; ++i; continue;
    case '\\': out += "\\\\"; ++i; continue;
    case '\n': out += "\\n"; ++i; continue;
    case '\r': out += "\\r"; ++i; continue;
    case '\t': out += "\\t"; ++i; continue;
    case '\b': out += "\\b"; ++i; continue;
    case '\f': out += "\\f"; ++i; continue;
    default: break;
    }
    if (c < 0x80) {
      appendUnicodeEscape(out, c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    unsigned len = decodeUtf8(s, i, cp);
    if (len == 0) {
      appendUnicodeEscape(out, c);
      ++i;
      continue;
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      appendUnicodeEscape(out, 0xD800 + (cp >> 10));
      appendUnicodeEscape(out, 0xDC00 + (cp & 0x3FF));
    } else {
      appendUnicodeEscape(out, cp);
    }
  }
  out += '"';
}

void appendPyFloatRepr(std::string &out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-Infinity" : "Infinity";
    return;
  }
  // fmt's shortest representation uses Python's thresholds (exponent form for
  // exponents below -4 or from 16 up) and Python's exponent spelling.
  size_t start = out.size();
  fmt::format_to(std::back_inserter(out), "{}", v);
  if (out.find_first_of(".en", start) == std::string::npos)
    out += ".0";
}

void appendPyJsonFloatField(std::string &out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "\"-Infinity\"" : "\"Infinity\"";
    return;
  }
  appendPyFloatRepr(out, v);
}

void appendInt(std::string &out, int64_t v) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof(buf), v);
  out.append(buf, result.ptr);
}

} // namespace pt2ir
