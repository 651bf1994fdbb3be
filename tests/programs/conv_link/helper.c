/* A plain shared library (built with the system compiler), linked with -L/-l. */
double helper_scale(double x)
{
  return 2.0 * x;
}
