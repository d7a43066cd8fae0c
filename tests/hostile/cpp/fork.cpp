// expect: denied
// Tries to start processes; prints how it went.
#include <cstdio>
#include <unistd.h>

int main() {
    int started = 0;
    for (int i = 0; i < 8; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        if (pid > 0) started++;
    }
    puts(started ? "forked" : "denied");
}
