# scripthost_discover_tests(<target> <prefix> [<label>])
# Registers every doctest case of <target> as its own CTest test (so each Mono test case
# gets a process of its own), and fails a test whose filter matched no case at all —
# a renamed case or a ';' in a name would otherwise "pass" by running nothing. The hosts a test
# starts keep their projects' state under the build folder, not the user's $XDG_STATE_HOME.
# <label> is the tier, a CTest label: unit (the default: one library, in-process) or e2e
# (the real binaries as whole processes), so `ctest -L unit` and `ctest -L e2e` pick a tier.
function(scripthost_discover_tests target prefix)
  set(label unit)
  if(ARGC GREATER 2)
    set(label ${ARGV2})
  endif()
  doctest_discover_tests(${target}
    TEST_PREFIX "${prefix}"
    PROPERTIES FAIL_REGULAR_EXPRESSION "test cases: +0 \\|"
               ENVIRONMENT "XDG_STATE_HOME=${CMAKE_BINARY_DIR}/test-state"
               LABELS ${label})
endfunction()
