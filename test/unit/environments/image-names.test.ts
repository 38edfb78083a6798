import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { datasetImageName, rowImageName, sweBenchImageName, sweGymImageName } from "@/lib/environments/dataset-images";
import { allowedRegistries, decideRegistry, parseImageReference } from "@/lib/environments/image-reference";

// Image names by each dataset's own convention. SWE-bench's is TestSpec.instance_image_key at
// SWE-bench/SWE-bench@7db9cf087d29e51d887ccc6950b516fd83862486 swebench/harness/test_spec/test_spec.py:
// f"{namespace}/sweb.eval.{arch}.{instance_id.lower()}:{tag}" with "__" replaced by "_1776_".

const lite = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../fixtures/swe-bench/swe-bench-lite-test.json"), "utf8"),
) as { instance_id: string }[];

describe("dataset image names", () => {
  it("names SWE-bench's per-instance image as its harness does, for every instance of a real SWE-bench Lite file", () => {
    for (const { instance_id } of lite) {
      const [owner, rest] = instance_id.split("__");
      expect(sweBenchImageName(instance_id)).toBe(`swebench/sweb.eval.x86_64.${owner}_1776_${rest}:latest`);
    }
    expect(sweBenchImageName("django__django-15781")).toBe("swebench/sweb.eval.x86_64.django_1776_django-15781:latest");
    // the harness lowercases the id before rewriting it
    expect(sweBenchImageName("Project-MONAI__MONAI-5686")).toBe(
      "swebench/sweb.eval.x86_64.project-monai_1776_monai-5686:latest",
    );
  });

  it("names SWE-Gym's images as OpenHands does: __ becomes _s_, lowercased", () => {
    expect(sweGymImageName("getmoto__moto-5752")).toBe("xingyaoww/sweb.eval.x86_64.getmoto_s_moto-5752:latest");
  });

  it("prefers the image a row names (SWE-smith's image_name, SWE-rebench's docker_image) over any convention", () => {
    const smith = { image_name: "swebench/swesmith.x86_64.pandas-dev_1776_pandas.95280573" };
    expect(rowImageName(smith)).toBe(smith.image_name);
    expect(
      datasetImageName({ source: "SWE_SMITH", instanceId: "pandas-dev__pandas.95280573.pr_53652", metadata: [smith] }),
    ).toBe(smith.image_name);
    expect(
      datasetImageName({
        source: "SWE_REBENCH",
        instanceId: "a__b-1",
        metadata: [{ docker_image: "swerebench/sweb.eval.x86_64.a_1776_b-1" }],
      }),
    ).toBe("swerebench/sweb.eval.x86_64.a_1776_b-1");
    expect(datasetImageName({ source: "SWE_BENCH", instanceId: "astropy__astropy-12907", metadata: [null] })).toBe(
      "swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest",
    );
    // a SWE-rebench row without docker_image, or an OpenSWE row: no image, nothing guessed
    expect(
      datasetImageName({ source: "SWE_REBENCH", instanceId: "a__b-1", metadata: [{ install_config: {} }] }),
    ).toBeNull();
    expect(datasetImageName({ source: "OPENSWE", instanceId: "x", metadata: [] })).toBeNull();
  });
});

describe("image references and the registry allow-list", () => {
  it("splits a reference as Docker does: Docker Hub unless the first part looks like a host", () => {
    expect(parseImageReference("swebench/sweb.eval.x86_64.django_1776_django-15781:latest")).toEqual({
      registry: "docker.io",
      repository: "swebench/sweb.eval.x86_64.django_1776_django-15781",
      tag: "latest",
    });
    expect(parseImageReference("python")).toEqual({
      registry: "docker.io",
      repository: "library/python",
      tag: "latest",
    });
    expect(parseImageReference("ghcr.io/org/img:v1")).toEqual({
      registry: "ghcr.io",
      repository: "org/img",
      tag: "v1",
    });
    expect(parseImageReference("127.0.0.1:5000/a/b")).toEqual({
      registry: "127.0.0.1:5000",
      repository: "a/b",
      tag: "latest",
    });
    expect(parseImageReference("localhost/a")).toEqual({ registry: "localhost", repository: "a", tag: "latest" });
    expect(parseImageReference("Not A Name")).toBeNull();
  });

  const registries = allowedRegistries({
    IMAGE_REGISTRIES: ["docker.io=127.0.0.1:5000", "ghcr.io"],
    IMAGE_REGISTRY_CREDENTIALS: ["ghcr.io=bot:s3cret"],
  });

  it("pulls an allowed registry's images from its mirror, with its credentials", () => {
    expect(decideRegistry("swebench/x:latest", registries)).toMatchObject({
      allowed: true,
      pullReference: "127.0.0.1:5000/swebench/x:latest",
      registry: { credentials: null },
    });
    expect(decideRegistry("ghcr.io/org/img:v1", registries)).toMatchObject({
      allowed: true,
      pullReference: "ghcr.io/org/img:v1",
      registry: { credentials: { username: "bot", password: "s3cret" } },
    });
  });

  it("refuses an unlisted registry with a sentence naming the image, the registry and the setting, and never the credentials", () => {
    const decision = decideRegistry("quay.io/org/img:1", registries);
    expect(decision).toEqual({
      allowed: false,
      reason:
        "the image quay.io/org/img:1 is in the registry quay.io, which IMAGE_REGISTRIES does not list; an admin adds quay.io to IMAGE_REGISTRIES (optionally =a mirror) to allow it",
    });
    expect(JSON.stringify(decideRegistry("nonsense name", registries))).not.toContain("s3cret");
    expect(
      decideRegistry(
        "anything",
        allowedRegistries({ IMAGE_REGISTRIES: undefined, IMAGE_REGISTRY_CREDENTIALS: undefined }),
      ),
    ).toMatchObject({ allowed: false });
  });
});
