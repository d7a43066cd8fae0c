// expect: refused
// Connects to a listener the test opened on the host's 127.0.0.1 (port on stdin).
#include <arpa/inet.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int main() {
    int port = 0;
    if (scanf("%d", &port) != 1) return 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    bool connected = s >= 0 && connect(s, (sockaddr *)&addr, sizeof addr) == 0;
    if (connected) write(s, "hello", 5);
    puts(connected ? "connected" : "refused");
}
