/* Linked into every program built by shmemsim-cc: the entry point used when someone runs the
 * program directly instead of through shmemsim-run. It says what to do and exits with status 1,
 * using raw system calls only (libc is not initialized at this point). shmemsim-run also looks
 * for this symbol to recognize shmemsim-cc programs. */
__attribute__((visibility("default"), noreturn)) void shmemsim_program_entry(void)
{
  static const char msg[] =
      "this OpenSHMEM program was built by shmemsim-cc: run it with 'shmemsim-run -np N PROGRAM [ARGS]'\n";
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(1L), "D"(2L), "S"(msg), "d"(sizeof msg - 1) : "rcx", "r11", "memory");
  __asm__ volatile("syscall" : : "a"(231L), "D"(1L) : "rcx", "r11", "memory");
  __builtin_unreachable();
}
