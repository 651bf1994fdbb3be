/* Held out (never used to fit): bitwise CRC-32 of a buffer, eight shift/xor/mask steps per byte. */
#include "kernel.h"

#define BYTES 16384

static unsigned char buf[BYTES];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < BYTES; ++i)
    buf[i] = (unsigned char)kernel_next();
  unsigned crc = 0xffffffffu;
  const double t0 = kernel_now();
  for (long r = 0; r < 8 * scale; ++r)
    for (int i = 0; i < BYTES; ++i) {
      crc ^= buf[i];
      for (int k = 0; k < 8; ++k)
        crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
  kernel_report(kernel_now() - t0, (double)(crc ^ 0xffffffffu));
  return 0;
}
