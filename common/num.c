/* Strict number syntax shared by the command line and the spec parsers of
 * the libraries: what strtol/strtod accept is wider than what a user means. */
#include "common/hn.h"

/* The one check behind every numeric option and spec value: the whole string is a plain
 * decimal number, with no blank, no '+', a '-' only where `minus` allows it,
 * and, for reals, only digits, one point and an exponent (no hex, inf or
 * nan). strtol and strtod alone skip leading blanks and read " -1" as a
 * huge unsigned value. */
int hn_number_plain(const char *s, int minus, int real)
{
    if (!s)
        return 0;
    if (*s == '-') {
        if (!minus)
            return 0;
        s++;
    }
    int digits = 0, point = 0, exp = 0;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') {
            digits++;
        } else if (real && *s == '.' && !point && !exp) {
            point = 1;
        } else if (real && (*s == 'e' || *s == 'E') && digits && !exp) {
            exp = 1;
            if (s[1] == '-' || s[1] == '+')
                s++;
            if (!(s[1] >= '0' && s[1] <= '9'))
                return 0;
        } else {
            return 0;
        }
    }
    return digits > 0;
}
