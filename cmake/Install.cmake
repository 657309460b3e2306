# `cmake --install build --prefix P`: the host, its client, what the host loads at run time,
# and the game SDK with a CMake package config.
#
#   P/bin/scripthost, P/bin/scriptctl         symlinks into the host's own folder
#   P/lib/scripthost/                         scripthost, scriptctl, ScriptCore.dll (+ .xml
#                                             docs, .mdb), scripthost-compile-server.exe:
#                                             the host finds ScriptCore and the compile server
#                                             beside its real path, as in build/bin/
#   P/include/scripthost/game/                the SDK headers
#   P/lib/cmake/ScriptHost/                   find_package(ScriptHost CONFIG): ScriptHost::game_sdk
#
# A game's own CMake project then says find_package(ScriptHost CONFIG REQUIRED) and links
# ScriptHost::game_sdk (docs/SDK.md).
include(CMakePackageConfigHelpers)

set(SCRIPTHOST_INSTALL_HOSTDIR ${CMAKE_INSTALL_LIBDIR}/scripthost)
set(SCRIPTHOST_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ScriptHost)

install(TARGETS scripthost scriptctl RUNTIME DESTINATION ${SCRIPTHOST_INSTALL_HOSTDIR})
install(FILES
  ${CMAKE_BINARY_DIR}/bin/ScriptCore.dll
  ${CMAKE_BINARY_DIR}/bin/ScriptCore.dll.mdb
  ${CMAKE_BINARY_DIR}/bin/ScriptCore.xml
  ${CMAKE_BINARY_DIR}/bin/scripthost-compile-server.exe
  ${CMAKE_BINARY_DIR}/bin/scripthost-compile-server.exe.mdb
  DESTINATION ${SCRIPTHOST_INSTALL_HOSTDIR})
# The inspector's page, found beside the binary as in build/bin/inspector/.
install(DIRECTORY ${CMAKE_BINARY_DIR}/bin/inspector DESTINATION ${SCRIPTHOST_INSTALL_HOSTDIR})
# bin/ holds relative symlinks, so /proc/self/exe is the real file beside ScriptCore.
foreach(program scripthost scriptctl)
  install(CODE "
    set(prefix \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
    file(MAKE_DIRECTORY \"\${prefix}/${CMAKE_INSTALL_BINDIR}\")
    file(RELATIVE_PATH target \"\${prefix}/${CMAKE_INSTALL_BINDIR}\"
         \"\${prefix}/${SCRIPTHOST_INSTALL_HOSTDIR}/${program}\")
    file(CREATE_LINK \"\${target}\" \"\${prefix}/${CMAKE_INSTALL_BINDIR}/${program}\" SYMBOLIC)
    message(STATUS \"Installing: \${prefix}/${CMAKE_INSTALL_BINDIR}/${program} -> \${target}\")")
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/scripthost
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS scripthost_game_sdk EXPORT ScriptHostTargets)
install(EXPORT ScriptHostTargets NAMESPACE ScriptHost:: DESTINATION ${SCRIPTHOST_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ScriptHostConfig.cmake.in
  ${CMAKE_BINARY_DIR}/ScriptHostConfig.cmake
  INSTALL_DESTINATION ${SCRIPTHOST_INSTALL_CMAKEDIR}
  PATH_VARS SCRIPTHOST_INSTALL_HOSTDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ScriptHostConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ScriptHostConfig.cmake
  ${CMAKE_BINARY_DIR}/ScriptHostConfigVersion.cmake
  DESTINATION ${SCRIPTHOST_INSTALL_CMAKEDIR})
