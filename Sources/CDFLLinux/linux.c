#include "CDFLLinux.h"

#include <sys/prctl.h>

int dfl_disable_core_dumps(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
