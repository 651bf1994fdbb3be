/* The specification's table of standard RMA types (OpenSHMEM 1.5, Table "Standard RMA Types and
 * Names"), as an X-macro for program tests: X(C type, TYPENAME). Written here once, from the
 * specification, so that tests check the library's own tables against it. */
#ifndef PROGTEST_RMA_TYPES_H
#define PROGTEST_RMA_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define RMA_TYPES(X)                                                                                   \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char) X(signed char, schar)    \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) X(unsigned char, uchar)            \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                            \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)               \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)    \
  X(size_t, size) X(ptrdiff_t, ptrdiff)

#endif
