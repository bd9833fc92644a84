# cmake --install: headers (with the generated .inc files and the TableGen
# sources), mxq's libraries, the C API, the tools, the Python package
# (python/CMakeLists.txt) and MXQConfig.cmake with imported targets MXQ::<Name>
# for each library MXQ<Name>. See docs/Rationale.md, "Packaging".
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mxq
                  ${PROJECT_SOURCE_DIR}/include/mxq-c
  DESTINATION include COMPONENT MXQDevelopment
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/mxq
  DESTINATION include COMPONENT MXQDevelopment
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h" PATTERN "*.def"
  PATTERN "CMakeFiles" EXCLUDE)

# Every library add_mlir_library made in this project, plus the C API.
get_property(mxq_libraries GLOBAL PROPERTY MLIR_EXPORTS)
list(FILTER mxq_libraries INCLUDE REGEX "^MXQ")
# The plain C++ libraries (no MLIR) and the C API.
foreach(lib MXQSupport MXQReference MXQGPURuntime MXQCAPI)
  if(TARGET ${lib})
    list(APPEND mxq_libraries ${lib})
  endif()
endforeach()
foreach(lib ${mxq_libraries})
  string(REGEX REPLACE "^MXQ" "" short ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
  target_include_directories(${lib} INTERFACE $<INSTALL_INTERFACE:include>)
endforeach()
install(TARGETS ${mxq_libraries} EXPORT MXQTargets
  ARCHIVE DESTINATION lib COMPONENT MXQDevelopment
  LIBRARY DESTINATION lib COMPONENT MXQDevelopment)
install(EXPORT MXQTargets NAMESPACE MXQ:: DESTINATION lib/cmake/mxq
  COMPONENT MXQDevelopment)

set(tools mxq-opt mxq-run mxq-sweep mxq-lsp-server)
if(TARGET mxq-gpu-launch)
  list(APPEND tools mxq-gpu-launch)
endif()
install(TARGETS ${tools} RUNTIME DESTINATION bin COMPONENT MXQTools)

string(REPLACE ";" ", " MXQ_TARGETS_TEXT "${MXQ_TARGETS}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/MXQConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/mxq/MXQConfig.cmake @ONLY)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/mxq/MXQConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/mxq/MXQConfig.cmake
              ${PROJECT_BINARY_DIR}/lib/cmake/mxq/MXQConfigVersion.cmake
  DESTINATION lib/cmake/mxq COMPONENT MXQDevelopment)
