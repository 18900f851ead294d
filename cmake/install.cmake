# libheurnet for programs that embed heurnet: one static and one shared
# library built from the objects of the module libraries (common, nn, search,
# datagen, train, solve), the public headers flat under include/heurnet/,
# heurnet.pc and a CMake package (find_package(heurnet) -> heurnet::heurnet).

set(HEURNET_MODULES hn_common hn_domains hn_nn hn_search hn_datagen hn_train hn_solve)
set(HEURNET_OBJECTS "")
foreach(m ${HEURNET_MODULES})
  list(APPEND HEURNET_OBJECTS $<TARGET_OBJECTS:${m}>)
endforeach()

# What the objects need; plain files and flags, so the package exports them.
set(HEURNET_DEPS ${HDF5_C_LIBRARIES} ${GSL_LIBRARY} ${ZLIB_LIBRARIES} Threads::Threads ${CMAKE_DL_LIBS} m)
set(HEURNET_PC_LIBS_PRIVATE "-lgsl")
if(GLPK_LIB AND GLPK_INCLUDE)
  list(APPEND HEURNET_DEPS ${GLPK_LIB})
  string(APPEND HEURNET_PC_LIBS_PRIVATE " -lglpk")
endif()
string(APPEND HEURNET_PC_LIBS_PRIVATE " -lpthread -ldl -lm")
if(OPENBLAS_FOUND)
  list(PREPEND HEURNET_DEPS ${OPENBLAS_LINK_LIBRARIES})
else()
  list(PREPEND HEURNET_DEPS ${BLAS_LIBRARIES})
endif()

add_library(heurnet_shared SHARED ${HEURNET_OBJECTS})
target_link_libraries(heurnet_shared PRIVATE ${HEURNET_DEPS})
if(HEURNET_MPI)
  target_link_libraries(heurnet_shared PRIVATE MPI::MPI_C)
endif()
if(NOT HEURNET_SANITIZE) # the sanitizer runtime comes with the executable
  target_link_options(heurnet_shared PRIVATE -Wl,--no-undefined)
endif()
set_target_properties(heurnet_shared PROPERTIES OUTPUT_NAME heurnet VERSION ${PROJECT_VERSION}
                                                SOVERSION ${PROJECT_VERSION_MAJOR} EXPORT_NAME heurnet)
add_library(heurnet_static STATIC ${HEURNET_OBJECTS})
target_link_libraries(heurnet_static INTERFACE ${HEURNET_DEPS})
set_target_properties(heurnet_static PROPERTIES OUTPUT_NAME heurnet EXPORT_NAME heurnet_static)
foreach(t heurnet_shared heurnet_static)
  target_include_directories(${t} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(${t} PROPERTIES ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
                                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
endforeach()

# Public headers, installed flat as <heurnet/NAME.h>: their "module/x.h"
# includes become "x.h" (same folder). Regenerated when a header changes.
set(HEURNET_PUBLIC_HEADERS
    common/hn.h domains/domain.h domains/dom.h nn/nn.h nn/export.h nn/import.h search/srch.h search/npuzzle/ann.h search/npuzzle/encode.h
    search/generic/srch_dom.h
    search/emp/emp.h
    search/emp/srch_em_scorer.h datagen/dg.h datagen/dataset.h datagen/dom_ds.h datagen/emp_moves.h train/trn.h
    solve/search.h solve/pdb_cache.h solve/eval_report.h solve/api.h solve/eval_dom.h
    solve/dom_search.h solve/dom_batch.h)
set(HEURNET_INC ${CMAKE_BINARY_DIR}/include/heurnet)
set(HEURNET_UMBRELLA "/* All of heurnet's public API (generated). */\n#ifndef HEURNET_H\n#define HEURNET_H\n")
foreach(h ${HEURNET_PUBLIC_HEADERS} gen/common/hn_version.h)
  if(h MATCHES "^gen/")
    set(src ${CMAKE_BINARY_DIR}/${h})
  else()
    set(src ${CMAKE_SOURCE_DIR}/${h})
    set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  endif()
  get_filename_component(name ${h} NAME)
  file(READ ${src} text)
  string(REGEX REPLACE "#include \"[a-z_/]+/([a-z_0-9]+\\.h)\"" "#include \"\\1\"" text "${text}")
  file(WRITE ${HEURNET_INC}/${name}.tmp "${text}")
  configure_file(${HEURNET_INC}/${name}.tmp ${HEURNET_INC}/${name} COPYONLY)
  file(REMOVE ${HEURNET_INC}/${name}.tmp)
  install(FILES ${HEURNET_INC}/${name} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/heurnet)
  string(APPEND HEURNET_UMBRELLA "#include \"${name}\"\n")
endforeach()
string(APPEND HEURNET_UMBRELLA "#endif\n")
file(WRITE ${HEURNET_INC}/heurnet.h.tmp "${HEURNET_UMBRELLA}")
configure_file(${HEURNET_INC}/heurnet.h.tmp ${HEURNET_INC}/heurnet.h COPYONLY)
file(REMOVE ${HEURNET_INC}/heurnet.h.tmp)
install(FILES ${HEURNET_INC}/heurnet.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/heurnet)

install(TARGETS heurnet_shared heurnet_static EXPORT heurnetTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS heurnet RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Relocatable: the prefix is found from the .pc file's own folder, so
# `cmake --install build --prefix P` works for any P.
file(RELATIVE_PATH HEURNET_PC_UP /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" HEURNET_PC_UP "${HEURNET_PC_UP}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/heurnet.pc.in ${CMAKE_BINARY_DIR}/heurnet.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/heurnet.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(CMakePackageConfigHelpers)
set(HEURNET_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/heurnet)
install(EXPORT heurnetTargets NAMESPACE heurnet:: DESTINATION ${HEURNET_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/heurnetConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/heurnetConfig.cmake
                              INSTALL_DESTINATION ${HEURNET_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/heurnetConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/heurnetConfig.cmake ${CMAKE_BINARY_DIR}/heurnetConfigVersion.cmake
        DESTINATION ${HEURNET_CMAKE_DIR})

# The Python package (python/heurnet) under HEURNET_PYTHON_DIR, with a
# _config.py that finds the installed library relative to the package, so
# the prefix stays relocatable.
# The default is the folder python3 searches under a prefix: Debian's
# interpreter searches PREFIX/lib/python3.X/dist-packages (for /usr/local
# and /usr), others PREFIX/lib/python3.X/site-packages.
set(HEURNET_PYTHON_DEFAULT lib/python3/dist-packages)
# (the system's interpreter first, the one a system prefix serves, as the
# tests run it; a pyenv or conda python3 earlier on PATH has other folders)
find_program(HEURNET_PYTHON3 python3 HINTS /usr/bin)
if(HEURNET_PYTHON3)
  execute_process(
    COMMAND ${HEURNET_PYTHON3} -c
            "import sys, sysconfig; v = '%d.%d' % sys.version_info[:2]; deb = 'deb_system' in sysconfig.get_scheme_names(); print('lib/python%s/%s' % (v, 'dist-packages' if deb else 'site-packages'))"
    OUTPUT_VARIABLE HEURNET_PYTHON_FOUND OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND HEURNET_PYTHON_FOUND)
    set(HEURNET_PYTHON_DEFAULT ${HEURNET_PYTHON_FOUND})
  endif()
endif()
set(HEURNET_PYTHON_SITE ""
    CACHE STRING "folder of the Python package under the install prefix (empty: python3's)")
unset(HEURNET_PYTHON_DIR CACHE) # the fixed folder of older builds, wrong for /usr/local
set(HEURNET_PYTHON_DIR "${HEURNET_PYTHON_SITE}")
if(HEURNET_PYTHON_DIR STREQUAL "")
  set(HEURNET_PYTHON_DIR ${HEURNET_PYTHON_DEFAULT})
endif()
file(GLOB HEURNET_PY_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/heurnet/*.py)
list(FILTER HEURNET_PY_SRC EXCLUDE REGEX "_config\\.py$")
install(FILES ${HEURNET_PY_SRC} DESTINATION ${HEURNET_PYTHON_DIR}/heurnet)
file(RELATIVE_PATH HEURNET_PY_LIBDIR /${HEURNET_PYTHON_DIR}/heurnet /${CMAKE_INSTALL_LIBDIR})
configure_file(${CMAKE_SOURCE_DIR}/cmake/heurnet_config.py.in ${CMAKE_BINARY_DIR}/python/_config.py
               @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/python/_config.py DESTINATION ${HEURNET_PYTHON_DIR}/heurnet)
