# opkit: one directory per Go module. Every target works module by module with
# GOWORK=off, exactly as each module is built, tidied and tested on its own.
# The module list has one source, hack/modules.sh, which finds every go.mod and
# orders the modules so that each comes after the siblings it requires.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c

MODULES := $(shell hack/modules.sh)
TOOL_MODULES := $(shell hack/modules.sh --tools)
ALL_MODULES := $(MODULES) $(TOOL_MODULES)

GO ?= go
GOTEST_FLAGS ?=

.PHONY: all
all: verify test

## test: run every module's tests (race detector where goroutines run; fuzz
## targets on their seed corpora), TEST_JOBS modules at a time (default: the
## number of cores); builds the control-plane
## assets in the background on first use, testing the modules that do not
## need them meanwhile; reports every failing module and fails if any did
.PHONY: test
test:
	@hack/test.sh $(GOTEST_FLAGS)

## fuzz: run each fuzz target of every module briefly (FUZZTIME, default 5s)
.PHONY: fuzz
fuzz:
	@status=0; for m in $(MODULES); do hack/fuzz-brief.sh $$m || status=1; done; exit $$status

## test-<dir>: run one module's tests, e.g. make test-configfold or
## make test-apply/servertest; the control plane is built only for modules
## that need it
.PHONY: $(addprefix test-,$(MODULES))
$(addprefix test-,$(MODULES)): test-%:
	hack/test-module.sh $* $(GOTEST_FLAGS)

## bench: run every module's benchmarks (ratios are measured within one run)
.PHONY: bench
bench: k8s-assets
	@for m in $(MODULES); do \
		echo "=== module $$m"; \
		(cd $$m && GOWORK=off CI=true $(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./...); \
	done

## e2e: run the cross-module scenarios at full size: 50 product clusters
## and 50 components under faults, every crash point, the restarts
## (OPKIT_E2E_CLUSTERS and OPKIT_E2E_COMPONENTS override the sizes,
## OPKIT_E2E_SEED replays a run's faults)
.PHONY: e2e
e2e: k8s-assets
	cd e2e && CI=true OPKIT_E2E_CLUSTERS=$${OPKIT_E2E_CLUSTERS:-50} OPKIT_E2E_COMPONENTS=$${OPKIT_E2E_COMPONENTS:-50} \
		GOWORK=off $(GO) test -count=1 -timeout 60m $(GOTEST_FLAGS) ./...

## demo: run the example operators on the embedded control plane and walk
## through what they do (KEEP=1 leaves the control plane running afterwards)
.PHONY: demo
demo: k8s-assets
	cd examples && GOWORK=off KEEP=$(KEEP) $(GO) run ./demo

## images: build the example operators' images without a container runtime
## (examples/image): an OCI image layout and a tarball each, in IMAGES_DIR
## (default bin/images, ignored by git), tagged opkit-examples/<x>-operator:IMAGE_TAG
## (default dev) for IMAGE_ARCH (default go env GOARCH). docker load -i,
## kind load image-archive and skopeo copy read them; the Dockerfiles beside
## the examples build the same binary on a distroless base
IMAGES_DIR ?= $(CURDIR)/bin/images
IMAGE_TAG ?= dev
IMAGE_ARCH ?= $(shell $(GO) env GOARCH)
IMAGE_EXAMPLES := $(patsubst examples/%/Dockerfile,%,$(wildcard examples/*/Dockerfile))
.PHONY: images
images:
	@for x in $(IMAGE_EXAMPLES); do \
		(cd examples && GOWORK=off $(GO) run ./image -arch $(IMAGE_ARCH) \
			-ref opkit-examples/$$x-operator:$(IMAGE_TAG) \
			-o $(abspath $(IMAGES_DIR))/$$x-operator -tar $(abspath $(IMAGES_DIR))/$$x-operator.tar ./$$x); \
	done

## k8s-assets: build etcd, kube-apiserver, kube-controller-manager, kube-scheduler
## and kwok into the cache directory (idempotent; OPKIT_ASSETS overrides the place)
.PHONY: k8s-assets
k8s-assets:
	@hack/k8s-assets/build.sh

## work: write go.work from the module list
.PHONY: work
work:
	@hack/work.sh

## tidy: one version of each shared dependency across the modules
## (hack/versions.sh), then go mod tidy in every module
.PHONY: tidy
tidy:
	@hack/versions.sh
	@for m in $(ALL_MODULES); do (cd $$m && GOWORK=off $(GO) mod tidy); done

## generate: run every module's generators (controller-gen)
.PHONY: generate
generate:
	@for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) generate ./...); done

## fmt: gofmt every Go file
.PHONY: fmt
fmt:
	@gofmt -s -w $$(git ls-files --cached --others --exclude-standard '*.go')

## vet: go vet every module
.PHONY: vet
vet:
	@failed=(); \
	for m in $(MODULES) hack/k8s-assets; do \
		(cd $$m && GOWORK=off $(GO) vet ./...) || failed+=("$$m"); \
	done; \
	if (( $${#failed[@]} )); then echo "vet failed in: $${failed[*]}"; exit 1; fi

## lint: golangci-lint (pinned in hack/tools, configured by .golangci.yml:
## staticcheck, errorlint, import aliases, forbidden calls, ...) on every module
.PHONY: lint
lint:
	@failed=(); \
	for m in $(MODULES) hack/k8s-assets; do \
		(cd $$m && GOWORK=off $(CURDIR)/hack/tool.sh golangci-lint run --config $(CURDIR)/.golangci.yml ./...) || failed+=("$$m"); \
	done; \
	if (( $${#failed[@]} )); then echo "lint failed in: $${failed[*]}"; exit 1; fi

## check: go.work matches the module list; every released module carries the
## root's LICENSE; the dependency graph (hack/deps.txt) matches both the
## imports and the go.mod requirements; pinned versions match the
## architecture; the modules share one version of each dependency; every released module tidies and builds alone in a consumer
## module, with the dependency count README.md states; the API check of
## release-check behaves as RELEASING.md says (in a throwaway clone)
.PHONY: check
check:
	@hack/work.sh --check
	@hack/check-licenses.sh
	@hack/check-imports.sh
	@hack/check-versions.sh
	@hack/versions.sh --check
	@hack/check-consumers.sh --readme
	@hack/test-release-check.sh

## release-order: print the released modules in the order they are tagged
.PHONY: release-order
release-order:
	@hack/modules.sh --release

## release-check: refuse to tag MODULE whose go.mod still requires a sibling
## at v0.0.0 or an untagged one, or whose API breaks its last release in a way
## VERSION does not allow (e.g. make release-check MODULE=builders VERSION=v0.3.0;
## without VERSION it prints the smallest version the changes allow)
.PHONY: release-check
release-check:
	@hack/release-check.sh $(MODULE) $(VERSION)

## verify: tidy, generate and fmt leave no diff; vet, lint and check pass
.PHONY: verify
verify: tidy generate fmt vet lint check
	@if [[ -n "$$(git status --porcelain)" ]]; then \
		echo "verify: the tree changed; commit the result of make tidy generate fmt:"; \
		git status --porcelain; git --no-pager diff --stat; exit 1; \
	fi
	@echo "verify: clean"

.PHONY: help
help:
	@grep -E '^## ' Makefile | sed 's/^## /  /'
