# job: script
# expect: status=raised:BaseException
raise BaseException("bye")
