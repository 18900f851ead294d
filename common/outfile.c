/* Which output paths may be written through a temporary name: a device
 * (/dev/stdout, /dev/full) or a FIFO must be written in place, because
 * renaming the temporary file over it would replace the device node (as
 * root, `-o /dev/full` used to succeed by doing exactly that). */
#include <sys/stat.h>

#include "common/hn.h"

int hn_path_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}
