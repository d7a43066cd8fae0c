// expect: 0
// Tries to delete, overwrite, truncate and rename a world-writable file
// outside its directory (path on stdin) and to create one beside it; prints
// how many attempts succeeded.
#include <cstdio>
#include <string>
#include <unistd.h>

int main() {
    char buf[4096];
    if (scanf("%4095s", buf) != 1) return 2;
    std::string path = buf, dir = path.substr(0, path.rfind('/'));
    int ok = 0;
    if (FILE *f = fopen(path.c_str(), "w")) { fputs("owned", f); fclose(f); ok++; }
    if (truncate(path.c_str(), 0) == 0) ok++;
    if (rename(path.c_str(), (path + ".moved").c_str()) == 0) ok++;
    if (FILE *f = fopen((dir + "/new").c_str(), "w")) { fclose(f); ok++; }
    if (unlink(path.c_str()) == 0) ok++;
    printf("%d\n", ok);
}
