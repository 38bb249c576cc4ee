#include "commands.h"
int cmd_introspect(int argc, char** argv) { (void)argc; (void)argv; return 1; }
