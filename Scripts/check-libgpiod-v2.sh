#!/usr/bin/env bash
# Builds Sources/CGPIOBridge against libgpiod 2.x and runs a small program through it, so the
# v2 half of the bridge stays compiling on a machine that only has libgpiod 1.6 installed.
#
# libgpiod 2.x's C sources come from the PyPI source package of its Python bindings (gpiod
# 2.4.0 vendors include/gpiod.h and lib/*.c). The download is cached in .build-gpiod-v2/.
# Prints PASS or FAIL; exits non-zero on failure.
set -euo pipefail

version=2.4.0
root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.build-gpiod-v2"
bridge="$root/Sources/CGPIOBridge"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: libgpiod v2 bridge check: $*" >&2
    exit 1
}

command -v gcc >/dev/null || fail "gcc is not installed"

# 1. The sources.
sdist="$cache/gpiod-$version.tar.gz"
if [ ! -f "$sdist" ]; then
    mkdir -p "$cache"
    python3 -m pip download --quiet --no-deps --no-binary :all: "gpiod==$version" -d "$cache" \
        || fail "could not download the gpiod $version source package from PyPI"
fi
tar -xzf "$sdist" -C "$work" || fail "could not unpack $sdist"
src="$work/gpiod-$version"
[ -f "$src/include/gpiod.h" ] || fail "the source package has no include/gpiod.h"
ls "$src"/lib/*.c >/dev/null 2>&1 || fail "the source package has no lib/*.c"
if grep -q GPIOD_LINE_BULK_MAX_LINES "$src/include/gpiod.h"; then
    fail "include/gpiod.h is a libgpiod 1.x header"
fi
libversion=$(cat "$src/libgpiod-version.txt" 2>/dev/null || echo "$version")
echo "libgpiod sources: $libversion (from the gpiod $version source package)"

# 2. libgpiod 2.x as a static library.
mkdir -p "$work/lib" "$work/bridge"
for file in "$src"/lib/*.c; do
    gcc -c -O1 -std=gnu11 -D_GNU_SOURCE -DGPIOD_VERSION_STR="\"$libversion\"" \
        -I"$src/include" -I"$src/lib" "$file" -o "$work/lib/$(basename "$file" .c).o" \
        || fail "libgpiod source $(basename "$file") did not compile"
done
ar rcs "$work/libgpiod.a" "$work"/lib/*.o

# 3. The bridge against the v2 header: the v2 file must carry the code, the v1 file nothing.
for file in "$bridge"/*.c; do
    gcc -c -std=gnu11 -Wall -Wextra -Werror -I"$src/include" -I"$bridge/include" \
        "$file" -o "$work/bridge/$(basename "$file" .c).o" \
        || fail "$(basename "$file") does not compile against libgpiod 2.x"
done
nm --defined-only "$work/bridge/imu_gpio_v2.o" | grep -q ' T imu_gpio_chip_open$' \
    || fail "imu_gpio_v2.c did not select the v2 branch"
if nm --defined-only "$work/bridge/imu_gpio_v1.o" | grep -q ' T imu_gpio_'; then
    fail "imu_gpio_v1.c compiled its v1 code against the v2 header"
fi

# 4. A program through the bridge: the error paths must come back cleanly, without a chip.
cat > "$work/check.c" <<'PROGRAM'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "imu_gpio.h"

static int failures = 0;
#define CHECK(condition, what) do { if (!(condition)) { printf("  not ok: %s\n", what); failures++; } \
                                    else printf("  ok: %s\n", what); } while (0)

int main(int argc, char **argv) {
    const char *empty_dir = argv[1], *fake_chip = argv[2], *fake_dir = argv[3];
    imu_gpio_chip *chip = (imu_gpio_chip *)0x1;
    char seen[256] = "garbage";

    CHECK(imu_gpio_api_version() == 2, "the bridge reports libgpiod API 2");
    int result = imu_gpio_chip_open("/nonexistent/gpiochip0", &chip);
    CHECK(result == -ENOENT && chip == NULL, "a missing chip path gives -ENOENT and no chip");
    result = imu_gpio_chip_open(fake_chip, &chip);
    CHECK(result < 0 && chip == NULL, "a regular file is refused as a chip");
    result = imu_gpio_chip_open_by_label(empty_dir, "pinctrl-bcm2711", &chip, seen, sizeof seen);
    CHECK(result == -ENOENT && chip == NULL && seen[0] == '\0', "no chip with a label in an empty directory");
    result = imu_gpio_chip_open_by_label(fake_dir, "pinctrl-rp1", &chip, seen, sizeof seen);
    CHECK(result == -ENOENT && chip == NULL, "files that are not chips are skipped");
    imu_gpio_chip_close(NULL);
    imu_gpio_line_release(NULL);
    return failures ? 1 : 0;
}
PROGRAM
gcc -std=gnu11 -Wall -Werror -I"$bridge/include" "$work/check.c" "$work"/bridge/*.o "$work/libgpiod.a" \
    -o "$work/check" || fail "the check program did not link against the bridge and libgpiod 2.x"
mkdir -p "$work/empty" "$work/fake"
echo "not a chip" > "$work/fake/gpiochip0"
"$work/check" "$work/empty" "$work/fake/gpiochip0" "$work/fake" || fail "the bridge misbehaved on libgpiod 2.x"

echo "PASS: CGPIOBridge builds and runs against libgpiod $libversion"
