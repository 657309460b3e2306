# scripthost_discover_tests(<target> <prefix>)
# Registers every doctest case of <target> as its own CTest test (so each Mono test case
# gets a process of its own), and fails a test whose filter matched no case at all —
# a renamed case or a ';' in a name would otherwise "pass" by running nothing.
function(scripthost_discover_tests target prefix)
  doctest_discover_tests(${target}
    TEST_PREFIX "${prefix}"
    PROPERTIES FAIL_REGULAR_EXPRESSION "test cases: +0 \\|")
endfunction()
