// expect: kept
// Its own working directory is writable: confinement is not a broken disk.
#include <cstdio>
#include <cstring>

int main() {
    FILE *f = fopen("scratch.txt", "w");
    if (!f) { puts("no scratch"); return 0; }
    fputs("kept", f);
    fclose(f);
    char buf[16] = {0};
    f = fopen("scratch.txt", "r");
    fgets(buf, sizeof buf, f);
    puts(buf);
}
