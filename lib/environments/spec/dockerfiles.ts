// The harness's Python Dockerfile templates (swebench/harness/dockerfiles/python.py at the pinned commit),
// filled the way get_dockerfile_base / _env / _instance fill them for arch x86_64.

export type DockerSpecs = { conda_version: string; ubuntu_version: string };

export const PLATFORM = "linux/x86_64";
const ARCH = "x86_64";

export function baseDockerfile(specs: DockerSpecs): string {
  return `
FROM --platform=${PLATFORM} ubuntu:${specs.ubuntu_version}

ARG DEBIAN_FRONTEND=noninteractive
ENV TZ=Etc/UTC

RUN apt update && apt install -y \\
wget \\
git \\
build-essential \\
libffi-dev \\
libtiff-dev \\
python3 \\
python3-pip \\
python-is-python3 \\
jq \\
curl \\
locales \\
locales-all \\
tzdata \\
&& rm -rf /var/lib/apt/lists/*

# Download and install conda
RUN wget 'https://repo.anaconda.com/miniconda/Miniconda3-${specs.conda_version}-Linux-${ARCH}.sh' -O miniconda.sh \\
    && bash miniconda.sh -b -p /opt/miniconda3
# Add conda to PATH
ENV PATH=/opt/miniconda3/bin:$PATH
# Add conda to shell startup scripts like .bashrc (DO NOT REMOVE THIS)
RUN conda init --all
RUN conda config --append channels conda-forge

RUN adduser --disabled-password --gecos 'dog' nonroot
`;
}

export function envDockerfile(baseImageKey: string): string {
  return `FROM --platform=${PLATFORM} ${baseImageKey}

COPY ./setup_env.sh /root/
RUN sed -i -e 's/\\r$//' /root/setup_env.sh
RUN chmod +x /root/setup_env.sh
RUN /bin/bash -c "source ~/.bashrc && /root/setup_env.sh"

WORKDIR /testbed/

# Automatically activate the testbed environment
RUN echo "source /opt/miniconda3/etc/profile.d/conda.sh && conda activate testbed" > /root/.bashrc
`;
}

export function instanceDockerfile(envImageKey: string): string {
  return `FROM --platform=${PLATFORM} ${envImageKey}

COPY ./setup_repo.sh /root/
RUN sed -i -e 's/\\r$//' /root/setup_repo.sh
RUN /bin/bash /root/setup_repo.sh

WORKDIR /testbed/
`;
}

export function baseImageKey(dockerSpecsHash: string | null): string {
  return dockerSpecsHash ? `sweb.base.py.${ARCH}.${dockerSpecsHash}:latest` : `sweb.base.py.${ARCH}:latest`;
}

export function envImageKey(hash: string): string {
  return `sweb.env.py.${ARCH}.${hash}:latest`;
}
