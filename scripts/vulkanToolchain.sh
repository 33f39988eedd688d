#!/usr/bin/env bash
# A shader compiler and Vulkan headers new enough for the llama.cpp that node-llama-cpp 3.22.1 bundles, on Debian 12.
# Debian 12's glslc (shaderc 2023.2) lacks GL_KHR_cooperative_matrix, which ggml's flash-attention decode shader
# needs whatever the feature test says (vulkan-shaders-gen compiles fa_decode_ph1 with coopmat, and ggml-vulkan.cpp
# links it), and its Vulkan headers (1.3.239) lack VkPhysicalDeviceCooperativeMatrixFeaturesKHR and
# vk::LayerSettingEXT. Debian 13's glslc (2025.2) and headers (1.4.309) have them, but its glslc needs glibc 2.38: so
# its packages are downloaded (not installed) with a private apt list, unpacked into a cache folder, and glslc runs
# under Debian 13's own loader and libraries through a wrapper. Only the build uses them; the built runtime links
# the system's libvulkan. Prints two lines to source: the cmake options node-llama-cpp passes on
# (NODE_LLAMA_CPP_CMAKE_OPTION_*). Cached under ${XDG_CACHE_HOME:-~/.cache}/swarmboard/vulkan-toolchain.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/swarmboard/vulkan-toolchain/trixie"
root="$cache/root"
if [ ! -x "$cache/glslc" ]; then
  mkdir -p "$cache/lists/partial" "$cache/debs"
  echo "deb http://deb.debian.org/debian trixie main" >"$cache/sources.list"
  mkdir -p "$cache/apt-cache/archives/partial"
  apt_opts=(-o "Dir::Etc::sourcelist=$cache/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$cache/lists"
    -o "Dir::Cache=$cache/apt-cache"
    -o APT::Get::List-Cleanup=0)
  apt-get "${apt_opts[@]}" update -q >&2
  (cd "$cache/debs" && apt-get "${apt_opts[@]}" download glslc libshaderc1 libc6 libstdc++6 libgcc-s1 libvulkan-dev >&2)
  for deb in "$cache"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
  cat >"$cache/glslc.partial" <<EOF
#!/bin/sh
exec "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin/glslc" "\$@"
EOF
  chmod +x "$cache/glslc.partial"
  mv "$cache/glslc.partial" "$cache/glslc"
fi
"$cache/glslc" --version >&2
echo "export NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_GLSLC_EXECUTABLE=$cache/glslc"
echo "export NODE_LLAMA_CPP_CMAKE_OPTION_Vulkan_INCLUDE_DIR=$root/usr/include"
