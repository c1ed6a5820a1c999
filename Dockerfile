# The llmfs container image: one static binary serving /workspace.
#   docker build -t llmfs .
#   docker run -i --rm -v "$PWD:/workspace" llmfs                     # MCP over stdio
#   docker run --rm -p 7700:7700 -v "$PWD:/workspace" llmfs serve --addr 0.0.0.0:7700 --root /workspace
# Mount the folder to serve at /workspace; the container runs as an unprivileged user, so give
# that user (uid 65532) access, or pass --user "$(id -u):$(id -g)".
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/llmfs ./cmd/llmfs

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/llmfs /usr/local/bin/llmfs
ENV LLMFS_CACHE_DIR=/tmp/llmfs-cache
WORKDIR /workspace
ENTRYPOINT ["/usr/local/bin/llmfs"]
CMD ["mcp", "--root", "/workspace"]
