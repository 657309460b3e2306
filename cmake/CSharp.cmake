# add_csharp_assembly(<target> OUTPUT <file.dll|file.exe> SOURCES <...> [WARNINGS_AS_ERRORS] [OPTIMIZE] [UNSAFE]
#                     [TARGET_KIND library|exe] [REFERENCES <dll>...] [DEPENDS <target>...]
#                     [NOWARN <code>...] [DOC <file.xml>])
# Builds a C# assembly with mcs, always with -debug so a .mdb lies beside it
# (Mono 6.8 reads .mdb, never portable pdb) and stack traces carry file:line.
# DOC writes the /// comments as XML documentation (editors show it beside the .dll); mcs then
# warns (CS1591) about every public member without one.
function(add_csharp_assembly target)
  cmake_parse_arguments(CS "WARNINGS_AS_ERRORS;OPTIMIZE;UNSAFE" "OUTPUT;TARGET_KIND;DOC" "SOURCES;REFERENCES;DEPENDS;NOWARN" ${ARGN})
  if(NOT CS_TARGET_KIND)
    set(CS_TARGET_KIND library)
  endif()
  set(flags -nologo -debug -langversion:7.2)
  if(CS_NOWARN)
    list(JOIN CS_NOWARN "," nowarn)
    list(APPEND flags -nowarn:${nowarn})
  endif()
  if(CS_OPTIMIZE)
    list(APPEND flags -optimize+)
  endif()
  if(CS_UNSAFE)
    list(APPEND flags -unsafe)
  endif()
  if(CS_WARNINGS_AS_ERRORS)
    list(APPEND flags -warnaserror+)
  endif()
  set(outputs ${CS_OUTPUT} ${CS_OUTPUT}.mdb)
  if(CS_DOC)
    list(APPEND flags -doc:${CS_DOC})
    list(APPEND outputs ${CS_DOC})
  endif()
  set(refs)
  foreach(r IN LISTS CS_REFERENCES)
    list(APPEND refs "-r:${r}")
  endforeach()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${SCRIPTHOST_MCS} ${flags}
            -target:${CS_TARGET_KIND} -out:${CS_OUTPUT} ${refs} ${CS_SOURCES}
    DEPENDS ${CS_SOURCES} ${CS_REFERENCES} ${CS_DEPENDS}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "mcs ${target}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${outputs})
  set_target_properties(${target} PROPERTIES ASSEMBLY_PATH ${CS_OUTPUT})
endfunction()
