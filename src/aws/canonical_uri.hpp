#pragma once
// The canonical URI of a SigV4 request for every service but S3: the path as it appears on
// the request line, with "." and ".." segments resolved and runs of '/' collapsed, then
// percent-encoded (so an already encoded "%2F" is encoded again, which is what AWS expects
// outside S3). The rules follow botocore, whose signatures AWS accepts: ".." above the root
// stays at the root, a trailing '/' survives only on a non-empty path, an empty path is "/".

#include <string>
#include <string_view>

namespace runwarden {

// "/a/./b//../c/" -> "/a/c/". `path` starts with '/' or is empty.
std::string normalized_path(std::string_view path);

// uri_encode(normalized_path(path)) with '/' kept.
std::string canonical_uri(std::string_view path);

}  // namespace runwarden
