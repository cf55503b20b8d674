#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs that have their own main (SwiftPM links executables
// with their module's main, which hides libFuzzer's). See llvm.org/docs/LibFuzzer.html.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
