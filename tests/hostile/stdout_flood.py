# job: script
# expect: status=output
import sys
chunk = "x" * 65536
while True:
    sys.stdout.write(chunk)
