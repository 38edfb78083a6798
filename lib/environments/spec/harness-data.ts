// Generated from SWE-bench's harness constants (swebench/harness/constants/*.py) in
// https://github.com/SWE-bench/SWE-bench at commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57 (tag v4.1.0).
// Do not edit by hand: lib/environments/spec/README.md says how to regenerate it.

export type RepoVersionSpec = {
  python?: string; packages?: string; install?: string; pre_install?: readonly string[]; pip_packages?: readonly string[];
  test_cmd?: string; eval_commands?: readonly string[]; no_use_env?: boolean; execute_test_as_nonroot?: boolean; nano_cpus?: number;
};

export const SWE_BENCH_REPOSITORY = "SWE-bench/SWE-bench";
export const SWE_BENCH_COMMIT = "726c5461e2ef52d83cf1ea2107870a8bb3328d57";
export const START_TEST_OUTPUT = ">>>>> Start Test Output";
export const END_TEST_OUTPUT = ">>>>> End Test Output";
export const NON_TEST_EXTS: readonly string[] = [".json", ".png", "csv", ".txt", ".md", ".jpg", ".jpeg", ".pkl", ".yml", ".yaml", ".toml"];
export const DEFAULT_DOCKER_SPECS = {
  "conda_version": "py311_23.11.0-2",
  "node_version": "21.6.2",
  "pnpm_version": "9.5.0",
  "python_version": "3.9",
  "ubuntu_version": "22.04"
} as const;
export const REPO_BASE_COMMIT_BRANCH: Record<string, Record<string, string>> = {
  "sympy/sympy": {
    "cffd4e0f86fefd4802349a9f9b19ed70934ea354": "1.7",
    "70381f282f2d9d039da860e391fe51649df2779d": "sympy-1.5.1"
  },
  "pytest-dev/pytest": {
    "8aba863a634f40560e25055d179220f0eefabe9a": "4.6.x"
  }
};
export const MAP_REPO_TO_INSTALL_PY: Record<string, string> = {};
export const MAP_REPO_TO_REQS_PATHS: Record<string, readonly string[]> = {
  "dbt-labs/dbt-core": [
    "dev-requirements.txt",
    "dev_requirements.txt"
  ],
  "django/django": [
    "tests/requirements/py3.txt"
  ],
  "matplotlib/matplotlib": [
    "requirements/dev/dev-requirements.txt",
    "requirements/testing/travis_all.txt"
  ],
  "pallets/flask": [
    "requirements/dev.txt"
  ],
  "pylint-dev/pylint": [
    "requirements_test.txt"
  ],
  "pyvista/pyvista": [
    "requirements_test.txt",
    "requirements.txt"
  ],
  "sqlfluff/sqlfluff": [
    "requirements_dev.txt"
  ],
  "sympy/sympy": [
    "requirements-dev.txt",
    "requirements-test.txt"
  ]
};
export const MAP_REPO_TO_ENV_YML_PATHS: Record<string, readonly string[]> = {
  "matplotlib/matplotlib": [
    "environment.yml"
  ],
  "pydata/xarray": [
    "ci/requirements/environment.yml",
    "environment.yml"
  ]
};
/** Repositories the harness knows in languages other than Python (their specs are not transcribed here). */
export const NON_PYTHON_REPOS: readonly string[] = [
  "Automattic/wp-calypso", "apache/druid", "apache/lucene", "astral-sh/ruff", "axios/axios", "babel/babel", "briannesbitt/carbon",
  "burntsushi/ripgrep", "caddyserver/caddy", "chartjs/Chart.js", "diegomura/react-pdf", "facebook/docusaurus", "faker-ruby/faker",
  "fastlane/fastlane", "fluent/fluentd", "fmtlib/fmt", "gin-gonic/gin", "gohugoio/hugo", "google/gson", "hashicorp/terraform",
  "immutable-js/immutable-js", "javaparser/javaparser", "jekyll/jekyll", "jordansissel/fpm", "jqlang/jq", "laravel/framework", "markedjs/marked",
  "micropython/micropython", "mrdoob/three.js", "nlohmann/json", "nushell/nushell", "php-cs-fixer/php-cs-fixer", "phpoffice/phpspreadsheet",
  "preactjs/preact", "processing/p5.js", "projectlombok/lombok", "prometheus/prometheus", "reactivex/rxjava", "redis/redis", "rubocop/rubocop",
  "sharkdp/bat", "tokio-rs/axum", "tokio-rs/tokio", "uutils/coreutils", "valkey-io/valkey", "vuejs/core",
];

const S0: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .[test] --verbose",
  "pip_packages": [
    "attrs==23.1.0",
    "exceptiongroup==1.1.3",
    "execnet==2.0.2",
    "hypothesis==6.82.6",
    "iniconfig==2.0.0",
    "numpy==1.25.2",
    "packaging==23.1",
    "pluggy==1.3.0",
    "psutil==5.9.5",
    "pyerfa==2.0.0.3",
    "pytest-arraydiff==0.5.0",
    "pytest-astropy-header==0.2.2",
    "pytest-astropy==0.10.0",
    "pytest-cov==4.1.0",
    "pytest-doctestplus==1.0.0",
    "pytest-filter-subpackage==0.1.2",
    "pytest-mock==3.11.1",
    "pytest-openfiles==0.5.0",
    "pytest-remotedata==0.4.0",
    "pytest-xdist==3.3.1",
    "pytest==7.4.0",
    "PyYAML==6.0.1",
    "setuptools==68.0.0",
    "sortedcontainers==2.4.0",
    "tomli==2.0.1"
  ],
  "test_cmd": "pytest -rA"
};
const S1: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .[test] --verbose",
  "pip_packages": [
    "attrs==23.1.0",
    "exceptiongroup==1.1.3",
    "execnet==2.0.2",
    "hypothesis==6.82.6",
    "iniconfig==2.0.0",
    "numpy==1.25.2",
    "packaging==23.1",
    "pluggy==1.3.0",
    "psutil==5.9.5",
    "pyerfa==2.0.0.3",
    "pytest-arraydiff==0.5.0",
    "pytest-astropy-header==0.2.2",
    "pytest-astropy==0.10.0",
    "pytest-cov==4.1.0",
    "pytest-doctestplus==1.0.0",
    "pytest-filter-subpackage==0.1.2",
    "pytest-mock==3.11.1",
    "pytest-openfiles==0.5.0",
    "pytest-remotedata==0.4.0",
    "pytest-xdist==3.3.1",
    "pytest==7.4.0",
    "PyYAML==6.0.1",
    "setuptools==68.0.0",
    "sortedcontainers==2.4.0",
    "tomli==2.0.1"
  ],
  "test_cmd": "pytest -rA",
  "pre_install": [
    "sed -i 's/requires = \\[\"setuptools\",/requires = \\[\"setuptools==68.0.0\",/' pyproject.toml"
  ]
};
const S2: RepoVersionSpec = {
  "python": "3.10",
  "install": "python -m pip install -e .[test] --verbose",
  "pip_packages": [
    "attrs==23.1.0",
    "exceptiongroup==1.1.3",
    "execnet==2.0.2",
    "hypothesis==6.82.6",
    "iniconfig==2.0.0",
    "numpy==1.25.2",
    "packaging==23.1",
    "pluggy==1.3.0",
    "psutil==5.9.5",
    "pyerfa==2.0.0.3",
    "pytest-arraydiff==0.5.0",
    "pytest-astropy-header==0.2.2",
    "pytest-astropy==0.10.0",
    "pytest-cov==4.1.0",
    "pytest-doctestplus==1.0.0",
    "pytest-filter-subpackage==0.1.2",
    "pytest-mock==3.11.1",
    "pytest-openfiles==0.5.0",
    "pytest-remotedata==0.4.0",
    "pytest-xdist==3.3.1",
    "pytest==7.4.0",
    "PyYAML==6.0.1",
    "setuptools==68.0.0",
    "sortedcontainers==2.4.0",
    "tomli==2.0.1"
  ],
  "test_cmd": "pytest -rA",
  "pre_install": [
    "sed -i 's/requires = \\[\"setuptools\",/requires = \\[\"setuptools==68.0.0\",/' pyproject.toml"
  ]
};
const S3: RepoVersionSpec = {
  "python": "3.6",
  "install": "python -m pip install -e .[test] --verbose",
  "packages": "setuptools==38.2.4",
  "pip_packages": [
    "attrs==17.3.0",
    "exceptiongroup==0.0.0a0",
    "execnet==1.5.0",
    "hypothesis==3.44.2",
    "cython==0.27.3",
    "jinja2==2.10",
    "MarkupSafe==1.0",
    "numpy==1.16.0",
    "packaging==16.8",
    "pluggy==0.6.0",
    "psutil==5.4.2",
    "pyerfa==1.7.0",
    "pytest-arraydiff==0.1",
    "pytest-astropy-header==0.1",
    "pytest-astropy==0.2.1",
    "pytest-cov==2.5.1",
    "pytest-doctestplus==0.1.2",
    "pytest-filter-subpackage==0.1",
    "pytest-forked==0.2",
    "pytest-mock==1.6.3",
    "pytest-openfiles==0.2.0",
    "pytest-remotedata==0.2.0",
    "pytest-xdist==1.20.1",
    "pytest==3.3.1",
    "PyYAML==3.12",
    "sortedcontainers==1.5.9",
    "tomli==0.2.0"
  ],
  "test_cmd": "pytest -rA -vv -o console_output_style=classic --tb=no"
};
const S4: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e ."
};
const S5: RepoVersionSpec = {
  "python": "3.5",
  "packages": "requirements.txt",
  "pre_install": [
    "apt-get update && apt-get install -y locales",
    "echo 'en_US UTF-8' > /etc/locale.gen",
    "locale-gen en_US.UTF-8"
  ],
  "install": "python setup.py install",
  "pip_packages": [
    "setuptools"
  ],
  "eval_commands": [
    "export LANG=en_US.UTF-8",
    "export LC_ALL=en_US.UTF-8",
    "export PYTHONIOENCODING=utf8",
    "export LANGUAGE=en_US:en"
  ],
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S6: RepoVersionSpec = {
  "python": "3.5",
  "packages": "requirements.txt",
  "pre_install": [
    "apt-get update && apt-get install -y locales",
    "echo 'en_US UTF-8' > /etc/locale.gen",
    "locale-gen en_US.UTF-8"
  ],
  "install": "python setup.py install",
  "pip_packages": [
    "setuptools"
  ],
  "eval_commands": [
    "export LANG=en_US.UTF-8",
    "export LC_ALL=en_US.UTF-8",
    "export PYTHONIOENCODING=utf8",
    "export LANGUAGE=en_US:en"
  ],
  "test_cmd": "./tests/runtests.py --verbosity 2"
};
const S7: RepoVersionSpec = {
  "python": "3.5",
  "install": "python setup.py install",
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S8: RepoVersionSpec = {
  "python": "3.6",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "eval_commands": [
    "sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen",
    "export LANG=en_US.UTF-8",
    "export LANGUAGE=en_US:en",
    "export LC_ALL=en_US.UTF-8"
  ],
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S9: RepoVersionSpec = {
  "python": "3.8",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S10: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S11: RepoVersionSpec = {
  "python": "3.11",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1"
};
const S12: RepoVersionSpec = {
  "python": "3.11",
  "packages": "environment.yml",
  "install": "python -m pip install -e .",
  "pre_install": [
    "apt-get -y update && apt-get -y upgrade && DEBIAN_FRONTEND=noninteractive apt-get install -y imagemagick ffmpeg texlive texlive-latex-extra texlive-fonts-recommended texlive-xetex texlive-luatex cm-super dvipng",
    "QHULL_URL=\"http://www.qhull.org/download/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_TAR=\"/tmp/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_BUILD_DIR=\"/testbed/build\"",
    "wget -O \"$QHULL_TAR\" \"$QHULL_URL\"",
    "mkdir -p \"$QHULL_BUILD_DIR\"",
    "tar -xvzf \"$QHULL_TAR\" -C \"$QHULL_BUILD_DIR\""
  ],
  "pip_packages": [
    "contourpy==1.1.0",
    "cycler==0.11.0",
    "fonttools==4.42.1",
    "ghostscript",
    "kiwisolver==1.4.5",
    "numpy==1.25.2",
    "packaging==23.1",
    "pillow==10.0.0",
    "pikepdf",
    "pyparsing==3.0.9",
    "python-dateutil==2.8.2",
    "six==1.16.0",
    "setuptools==68.1.2",
    "setuptools-scm==7.1.0",
    "typing-extensions==4.7.1"
  ],
  "test_cmd": "pytest -rA"
};
const S13: RepoVersionSpec = {
  "python": "3.11",
  "packages": "environment.yml",
  "install": "python -m pip install --no-build-isolation -e \".[dev]\"",
  "pre_install": [
    "apt-get -y update && apt-get -y upgrade && DEBIAN_FRONTEND=noninteractive apt-get install -y imagemagick ffmpeg texlive texlive-latex-extra texlive-fonts-recommended texlive-xetex texlive-luatex cm-super dvipng",
    "QHULL_URL=\"http://www.qhull.org/download/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_TAR=\"/tmp/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_BUILD_DIR=\"/testbed/build\"",
    "wget -O \"$QHULL_TAR\" \"$QHULL_URL\"",
    "mkdir -p \"$QHULL_BUILD_DIR\"",
    "tar -xvzf \"$QHULL_TAR\" -C \"$QHULL_BUILD_DIR\""
  ],
  "pip_packages": [
    "contourpy==1.1.0",
    "cycler==0.11.0",
    "fonttools==4.42.1",
    "ghostscript",
    "kiwisolver==1.4.5",
    "numpy==1.25.2",
    "packaging==23.1",
    "pillow==10.0.0",
    "pikepdf",
    "pyparsing==3.0.9",
    "python-dateutil==2.8.2",
    "six==1.16.0",
    "setuptools==68.1.2",
    "setuptools-scm==7.1.0",
    "typing-extensions==4.7.1"
  ],
  "test_cmd": "pytest -rA"
};
const S14: RepoVersionSpec = {
  "python": "3.8",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pre_install": [
    "apt-get -y update && apt-get -y upgrade && DEBIAN_FRONTEND=noninteractive apt-get install -y imagemagick ffmpeg libfreetype6-dev pkg-config texlive texlive-latex-extra texlive-fonts-recommended texlive-xetex texlive-luatex cm-super",
    "QHULL_URL=\"http://www.qhull.org/download/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_TAR=\"/tmp/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_BUILD_DIR=\"/testbed/build\"",
    "wget -O \"$QHULL_TAR\" \"$QHULL_URL\"",
    "mkdir -p \"$QHULL_BUILD_DIR\"",
    "tar -xvzf \"$QHULL_TAR\" -C \"$QHULL_BUILD_DIR\""
  ],
  "pip_packages": [
    "pytest",
    "ipython"
  ],
  "test_cmd": "pytest -rA"
};
const S15: RepoVersionSpec = {
  "python": "3.7",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pre_install": [
    "apt-get -y update && apt-get -y upgrade && apt-get install -y imagemagick ffmpeg libfreetype6-dev pkg-config",
    "QHULL_URL=\"http://www.qhull.org/download/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_TAR=\"/tmp/qhull-2020-src-8.0.2.tgz\"",
    "QHULL_BUILD_DIR=\"/testbed/build\"",
    "wget -O \"$QHULL_TAR\" \"$QHULL_URL\"",
    "mkdir -p \"$QHULL_BUILD_DIR\"",
    "tar -xvzf \"$QHULL_TAR\" -C \"$QHULL_BUILD_DIR\""
  ],
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S16: RepoVersionSpec = {
  "python": "3.5",
  "install": "python setup.py build; python setup.py install",
  "pre_install": [
    "apt-get -y update && apt-get -y upgrade && && apt-get install -y imagemagick ffmpeg"
  ],
  "pip_packages": [
    "pytest"
  ],
  "execute_test_as_nonroot": true,
  "test_cmd": "pytest -rA"
};
const S17: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e '.[dev]'",
  "test_cmd": "pytest -rA"
};
const S18: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "contourpy==1.1.0",
    "cycler==0.11.0",
    "fonttools==4.42.1",
    "importlib-resources==6.0.1",
    "kiwisolver==1.4.5",
    "matplotlib==3.7.2",
    "numpy==1.25.2",
    "packaging==23.1",
    "pandas==1.3.5",
    "pillow==10.0.0",
    "pyparsing==3.0.9",
    "pytest",
    "python-dateutil==2.8.2",
    "pytz==2023.3.post1",
    "scipy==1.11.2",
    "six==1.16.0",
    "tzdata==2023.1",
    "zipp==3.16.2"
  ],
  "test_cmd": "pytest --no-header -rA"
};
const S19: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .[dev]",
  "pip_packages": [
    "contourpy==1.1.0",
    "cycler==0.11.0",
    "fonttools==4.42.1",
    "importlib-resources==6.0.1",
    "kiwisolver==1.4.5",
    "matplotlib==3.7.2",
    "numpy==1.25.2",
    "packaging==23.1",
    "pandas==2.0.0",
    "pillow==10.0.0",
    "pyparsing==3.0.9",
    "pytest",
    "python-dateutil==2.8.2",
    "pytz==2023.3.post1",
    "scipy==1.11.2",
    "six==1.16.0",
    "tzdata==2023.1",
    "zipp==3.16.2"
  ],
  "test_cmd": "pytest --no-header -rA"
};
const S20: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "setuptools==70.0.0",
    "Werkzeug==2.3.7",
    "Jinja2==3.0.1",
    "itsdangerous==2.1.2",
    "click==8.0.1",
    "MarkupSafe==2.1.3"
  ],
  "test_cmd": "pytest -rA"
};
const S21: RepoVersionSpec = {
  "python": "3.10",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "setuptools==70.0.0",
    "click==8.1.3",
    "itsdangerous==2.1.2",
    "Jinja2==3.1.2",
    "MarkupSafe==2.1.1",
    "Werkzeug==2.3.7"
  ],
  "test_cmd": "pytest -rA"
};
const S22: RepoVersionSpec = {
  "python": "3.11",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "setuptools==70.0.0",
    "click==8.1.3",
    "itsdangerous==2.1.2",
    "Jinja2==3.1.2",
    "MarkupSafe==2.1.1",
    "Werkzeug==2.3.7"
  ],
  "test_cmd": "pytest -rA"
};
const S23: RepoVersionSpec = {
  "python": "3.9",
  "packages": "pytest",
  "install": "python -m pip install .",
  "test_cmd": "pytest -rA"
};
const S24: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .[all]",
  "packages": "pandas scipy",
  "pip_packages": [
    "jupyter",
    "ipython",
    "matplotlib",
    "pytest",
    "flake8"
  ],
  "test_cmd": "pytest -rA"
};
const S25: RepoVersionSpec = {
  "python": "3.10",
  "packages": "environment.yml",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "numpy==1.23.0",
    "packaging==23.1",
    "pandas==1.5.3",
    "pytest==7.4.0",
    "python-dateutil==2.8.2",
    "pytz==2023.3",
    "six==1.16.0",
    "scipy==1.11.1",
    "setuptools==68.0.0",
    "dask==2022.8.1"
  ],
  "no_use_env": true,
  "test_cmd": "pytest -rA"
};
const S26: RepoVersionSpec = {
  "python": "3.6",
  "install": "python -m pip install -e .",
  "packages": "numpy",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S27: RepoVersionSpec = {
  "python": "3.8",
  "install": "python -m pip install -e .",
  "packages": "numpy",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S28: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "packages": "numpy",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S29: RepoVersionSpec = {
  "python": "3.10",
  "install": "python -m pip install -e .",
  "packages": "numpy",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S30: RepoVersionSpec = {
  "python": "3.11",
  "install": "python -m pip install -e .",
  "packages": "numpy",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S31: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA"
};
const S32: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA"
};
const S33: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "nano_cpus": 2000000000
};
const S34: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "pyenchant==3.2"
  ],
  "pre_install": [
    "apt-get update && apt-get install -y libenchant-2-dev hunspell-en-us"
  ]
};
const S35: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "astroid==3.0.0a6",
    "setuptools"
  ],
  "nano_cpus": 2000000000
};
const S36: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "atomicwrites==1.4.1",
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "pluggy==0.13.1",
    "py==1.11.0",
    "setuptools==68.0.0",
    "six==1.16.0"
  ]
};
const S37: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "atomicwrites==1.4.1",
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "pluggy==0.11.0",
    "py==1.11.0",
    "setuptools==68.0.0",
    "six==1.16.0",
    "wcwidth==0.2.6"
  ]
};
const S38: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "atomicwrites==1.4.1",
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "six==1.16.0",
    "wcwidth==0.2.6"
  ]
};
const S39: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "atomicwrites==1.4.1",
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "wcwidth==0.2.6"
  ]
};
const S40: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "wcwidth==0.2.6"
  ]
};
const S41: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "py==1.11.0",
    "packaging==23.1",
    "attrs==23.1.0",
    "more-itertools==10.1.0",
    "pluggy==0.13.1"
  ]
};
const S42: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "iniconfig==2.0.0",
    "more-itertools==10.1.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "toml==0.10.2"
  ]
};
const S43: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "iniconfig==2.0.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "toml==0.10.2"
  ]
};
const S44: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "iniconfig==2.0.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "toml==0.10.2"
  ],
  "pre_install": [
    "sed -i 's/>=>=/>=/' setup.cfg"
  ]
};
const S45: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "iniconfig==2.0.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0"
  ]
};
const S46: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "attrs==23.1.0",
    "iniconfig==2.0.0",
    "packaging==23.1",
    "pluggy==0.13.1",
    "py==1.11.0",
    "tomli==2.0.1"
  ]
};
const S47: RepoVersionSpec = {
  "python": "3.9",
  "install": "python -m pip install -e .",
  "test_cmd": "pytest -rA",
  "pip_packages": [
    "iniconfig==2.0.0",
    "packaging==23.1",
    "pluggy==1.3.0",
    "exceptiongroup==1.1.3",
    "tomli==2.0.1"
  ]
};
const S48: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "pytest"
  ],
  "test_cmd": "pytest -rA",
  "pre_install": [
    "apt-get update && apt-get install -y ffmpeg libsm6 libxext6 libxrender1"
  ]
};
const S49: RepoVersionSpec = {
  "python": "3.6",
  "packages": "numpy scipy cython pytest pandas matplotlib",
  "install": "python -m pip install -v --no-use-pep517 --no-build-isolation -e .",
  "pip_packages": [
    "cython",
    "numpy==1.19.2",
    "setuptools",
    "scipy==1.5.2"
  ],
  "test_cmd": "pytest -rA"
};
const S50: RepoVersionSpec = {
  "python": "3.9",
  "packages": "'numpy==1.19.2' 'scipy==1.5.2' 'cython==3.0.10' pytest 'pandas<2.0.0' 'matplotlib<3.9.0' setuptools pytest joblib threadpoolctl",
  "install": "python -m pip install -v --no-use-pep517 --no-build-isolation -e .",
  "pip_packages": [
    "cython",
    "setuptools",
    "numpy",
    "scipy"
  ],
  "test_cmd": "pytest -rA"
};
const S51: RepoVersionSpec = {
  "python": "3.9",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S52: RepoVersionSpec = {
  "python": "3.9",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini",
    "sed -i 's/Jinja2>=2.3/Jinja2<3.0/' setup.py",
    "sed -i 's/sphinxcontrib-applehelp/sphinxcontrib-applehelp<=1.0.7/' setup.py",
    "sed -i 's/sphinxcontrib-devhelp/sphinxcontrib-devhelp<=1.0.5/' setup.py",
    "sed -i 's/sphinxcontrib-qthelp/sphinxcontrib-qthelp<=1.0.6/' setup.py",
    "sed -i 's/alabaster>=0.7,<0.8/alabaster>=0.7,<0.7.12/' setup.py",
    "sed -i \"s/'packaging',/'packaging', 'markupsafe<=2.0.1',/\" setup.py",
    "sed -i 's/sphinxcontrib-htmlhelp/sphinxcontrib-htmlhelp<=2.0.4/' setup.py",
    "sed -i 's/sphinxcontrib-serializinghtml/sphinxcontrib-serializinghtml<=1.1.9/' setup.py"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S53: RepoVersionSpec = {
  "python": "3.9",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini",
    "sed -i 's/Jinja2>=2.3/Jinja2<3.0/' setup.py",
    "sed -i 's/sphinxcontrib-applehelp/sphinxcontrib-applehelp<=1.0.7/' setup.py",
    "sed -i 's/sphinxcontrib-devhelp/sphinxcontrib-devhelp<=1.0.5/' setup.py",
    "sed -i 's/sphinxcontrib-qthelp/sphinxcontrib-qthelp<=1.0.6/' setup.py",
    "sed -i 's/alabaster>=0.7,<0.8/alabaster>=0.7,<0.7.12/' setup.py",
    "sed -i \"s/'packaging',/'packaging', 'markupsafe<=2.0.1',/\" setup.py",
    "grep -q 'sphinxcontrib-htmlhelp>=2.0.0' setup.py && sed -i 's/sphinxcontrib-htmlhelp>=2.0.0/sphinxcontrib-htmlhelp>=2.0.0,<=2.0.4/' setup.py || sed -i 's/sphinxcontrib-htmlhelp/sphinxcontrib-htmlhelp<=2.0.4/' setup.py",
    "grep -q 'sphinxcontrib-serializinghtml>=1.1.5' setup.py && sed -i 's/sphinxcontrib-serializinghtml>=1.1.5/sphinxcontrib-serializinghtml>=1.1.5,<=1.1.9/' setup.py || sed -i 's/sphinxcontrib-serializinghtml/sphinxcontrib-serializinghtml<=1.1.9/' setup.py"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S54: RepoVersionSpec = {
  "python": "3.9",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini",
    "sed -i 's/Jinja2>=2.3/Jinja2<3.0/' setup.py",
    "sed -i 's/sphinxcontrib-applehelp/sphinxcontrib-applehelp<=1.0.7/' setup.py",
    "sed -i 's/sphinxcontrib-devhelp/sphinxcontrib-devhelp<=1.0.5/' setup.py",
    "sed -i 's/sphinxcontrib-qthelp/sphinxcontrib-qthelp<=1.0.6/' setup.py",
    "sed -i 's/alabaster>=0.7,<0.8/alabaster>=0.7,<0.7.12/' setup.py",
    "sed -i \"s/'packaging',/'packaging', 'markupsafe<=2.0.1',/\" setup.py",
    "sed -i 's/sphinxcontrib-htmlhelp>=2.0.0/sphinxcontrib-htmlhelp>=2.0.0,<=2.0.4/' setup.py",
    "sed -i 's/sphinxcontrib-serializinghtml>=1.1.5/sphinxcontrib-serializinghtml>=1.1.5,<=1.1.9/' setup.py"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S55: RepoVersionSpec = {
  "python": "3.9",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini",
    "apt-get update && apt-get install -y graphviz"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S56: RepoVersionSpec = {
  "python": "3.10",
  "pip_packages": [
    "tox==4.16.0",
    "tox-current-env==0.0.11",
    "Jinja2==3.0.3"
  ],
  "install": "python -m pip install -e .[test]",
  "pre_install": [
    "sed -i 's/pytest/pytest -rA/' tox.ini",
    "apt-get update && apt-get install -y graphviz"
  ],
  "test_cmd": "tox --current-env -epy39 -v --"
};
const S57: RepoVersionSpec = {
  "python": "3.9",
  "test_cmd": "python"
};
const S58: RepoVersionSpec = {
  "python": "3.9",
  "packages": "mpmath flake8",
  "pip_packages": [
    "mpmath==1.3.0",
    "flake8-comprehensions"
  ],
  "install": "python -m pip install -e .",
  "test_cmd": "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose"
};
const S59: RepoVersionSpec = {
  "python": "3.9",
  "packages": "requirements.txt",
  "install": "python -m pip install -e .",
  "pip_packages": [
    "mpmath==1.3.0"
  ],
  "test_cmd": "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose"
};

/** MAP_REPO_VERSION_TO_SPECS for the harness's Python repositories. */
export const MAP_REPO_VERSION_TO_SPECS_PY: Record<string, Record<string, RepoVersionSpec>> = {
  "astropy/astropy": {
    "3.0": S0,
    "3.1": S0,
    "3.2": S0,
    "4.1": S1,
    "4.2": S1,
    "4.3": S1,
    "5.0": S1,
    "5.1": S1,
    "5.2": S1,
    "v5.3": S2,
    "0.1": S3,
    "0.2": S3,
    "0.3": S3,
    "0.4": S3,
    "1.1": S3,
    "1.2": S3,
    "1.3": S3,
  },
  "dbt-labs/dbt-core": {
    "0.13": S4,
    "0.14": S4,
    "0.15": S4,
    "0.16": S4,
    "0.17": S4,
    "0.18": S4,
    "0.19": S4,
    "0.20": S4,
    "0.21": S4,
    "1.0": S4,
    "1.1": S4,
    "1.2": S4,
    "1.3": S4,
    "1.4": S4,
    "1.5": S4,
    "1.6": S4,
    "1.7": S4,
  },
  "django/django": {
    "1.7": S5,
    "1.8": S5,
    "1.9": S6,
    "1.10": S5,
    "1.11": S5,
    "2.0": S5,
    "2.1": S5,
    "2.2": S5,
    "1.4": S7,
    "1.5": S7,
    "1.6": S7,
    "3.0": S8,
    "3.1": S8,
    "3.2": S8,
    "4.0": S9,
    "4.1": S10,
    "4.2": S10,
    "5.0": S11,
    "5.1": S11,
    "5.2": S11,
  },
  "matplotlib/matplotlib": {
    "3.5": S12,
    "3.6": S12,
    "3.7": S12,
    "3.8": S13,
    "3.9": S13,
    "3.1": S14,
    "3.2": S14,
    "3.3": S14,
    "3.4": S14,
    "3.0": S15,
    "2.0": S16,
    "2.1": S16,
    "2.2": S16,
    "1.0": S16,
    "1.1": S16,
    "1.2": S16,
    "1.3": S16,
    "1.4": S16,
    "1.5": S16,
  },
  "marshmallow-code/marshmallow": {
    "2.18": S17,
    "2.19": S17,
    "2.20": S17,
    "3.0": S17,
    "3.1": S17,
    "3.10": S17,
    "3.11": S17,
    "3.12": S17,
    "3.13": S17,
    "3.15": S17,
    "3.16": S17,
    "3.19": S17,
    "3.2": S17,
    "3.4": S17,
    "3.8": S17,
    "3.9": S17,
  },
  "mwaskom/seaborn": {
    "0.11": S18,
    "0.12": S19,
    "0.13": S19,
    "0.14": S19,
  },
  "pallets/flask": {
    "2.0": S20,
    "2.1": S21,
    "2.2": S22,
    "2.3": S22,
    "3.0": S22,
    "3.1": S22,
  },
  "psf/requests": {
    "0.7": S23,
    "0.8": S23,
    "0.9": S23,
    "0.11": S23,
    "0.13": S23,
    "0.14": S23,
    "1.1": S23,
    "1.2": S23,
    "2.0": S23,
    "2.2": S23,
    "2.3": S23,
    "2.4": S23,
    "2.5": S23,
    "2.7": S23,
    "2.8": S23,
    "2.9": S23,
    "2.10": S23,
    "2.11": S23,
    "2.12": S23,
    "2.17": S23,
    "2.18": S23,
    "2.19": S23,
    "2.22": S23,
    "2.26": S23,
    "2.25": S23,
    "2.27": S23,
    "2.31": S23,
    "3.0": S23,
  },
  "pvlib/pvlib-python": {
    "0.1": S24,
    "0.2": S24,
    "0.3": S24,
    "0.4": S24,
    "0.5": S24,
    "0.6": S24,
    "0.7": S24,
    "0.8": S24,
    "0.9": S24,
  },
  "pydata/xarray": {
    "0.12": S25,
    "0.18": S25,
    "0.19": S25,
    "0.20": S25,
    "2022.03": S25,
    "2022.06": S25,
    "2022.09": S25,
    "2023.07": S25,
    "2024.05": S25,
  },
  "pydicom/pydicom": {
    "1.0": S26,
    "1.1": S26,
    "1.2": S26,
    "1.3": S26,
    "1.4": S27,
    "2.0": S27,
    "2.1": S28,
    "2.2": S28,
    "2.3": S29,
    "2.4": S30,
    "3.0": S30,
  },
  "pylint-dev/astroid": {
    "2.10": S31,
    "2.12": S31,
    "2.13": S31,
    "2.14": S31,
    "2.15": S31,
    "2.16": S31,
    "2.5": S31,
    "2.6": S31,
    "2.7": S31,
    "2.8": S31,
    "2.9": S31,
    "3.0": S31,
  },
  "pylint-dev/pylint": {
    "2.10": S32,
    "2.11": S32,
    "2.13": S32,
    "2.14": S33,
    "2.15": S33,
    "2.16": S32,
    "2.17": S33,
    "2.8": S34,
    "2.9": S32,
    "3.0": S35,
    "3.1": S35,
    "3.2": S35,
    "3.3": S35,
    "4.0": S35,
  },
  "pytest-dev/pytest": {
    "4.4": S36,
    "4.5": S37,
    "4.6": S38,
    "5.0": S39,
    "5.1": S39,
    "5.2": S39,
    "5.3": S40,
    "5.4": S41,
    "6.0": S42,
    "6.2": S43,
    "6.3": S44,
    "7.0": S45,
    "7.1": S46,
    "7.2": S46,
    "7.4": S47,
    "8.0": S47,
    "8.1": S47,
    "8.2": S47,
    "8.3": S47,
    "8.4": S47,
  },
  "pyvista/pyvista": {
    "0.20": S31,
    "0.21": S31,
    "0.22": S31,
    "0.23": S31,
    "0.24": S48,
    "0.25": S48,
    "0.26": S48,
    "0.27": S48,
    "0.28": S48,
    "0.29": S48,
    "0.30": S48,
    "0.31": S48,
    "0.32": S48,
    "0.33": S48,
    "0.34": S48,
    "0.35": S48,
    "0.36": S48,
    "0.37": S48,
    "0.38": S48,
    "0.39": S48,
    "0.40": S48,
    "0.41": S48,
    "0.42": S48,
    "0.43": S48,
  },
  "scikit-learn/scikit-learn": {
    "0.20": S49,
    "0.21": S49,
    "0.22": S49,
    "1.3": S50,
    "1.4": S50,
    "1.5": S50,
    "1.6": S50,
  },
  "sphinx-doc/sphinx": {
    "1.5": S51,
    "1.6": S51,
    "1.7": S51,
    "1.8": S51,
    "2.0": S51,
    "2.1": S51,
    "2.2": S51,
    "2.3": S51,
    "2.4": S51,
    "3.0": S52,
    "3.1": S52,
    "3.2": S52,
    "3.3": S52,
    "3.4": S52,
    "3.5": S52,
    "4.0": S52,
    "4.1": S53,
    "4.2": S54,
    "4.3": S54,
    "4.4": S54,
    "4.5": S51,
    "5.0": S51,
    "5.1": S51,
    "5.2": S51,
    "5.3": S51,
    "6.0": S51,
    "6.2": S51,
    "7.0": S51,
    "7.1": S51,
    "7.2": S55,
    "7.3": S55,
    "7.4": S55,
    "8.0": S56,
    "8.1": S56,
  },
  "sqlfluff/sqlfluff": {
    "0.10": S32,
    "0.11": S32,
    "0.12": S32,
    "0.13": S32,
    "0.4": S32,
    "0.5": S32,
    "0.6": S32,
    "0.8": S32,
    "0.9": S32,
    "1.0": S32,
    "1.1": S32,
    "1.2": S32,
    "1.3": S32,
    "1.4": S32,
    "2.0": S32,
    "2.1": S32,
    "2.2": S32,
  },
  "swe-bench/humaneval": {
    "1.0": S57,
  },
  "sympy/sympy": {
    "0.7": S58,
    "1.0": S58,
    "1.1": S58,
    "1.10": S58,
    "1.11": S58,
    "1.12": S58,
    "1.2": S58,
    "1.4": S58,
    "1.5": S58,
    "1.6": S58,
    "1.7": S58,
    "1.8": S58,
    "1.9": S58,
    "1.13": S59,
    "1.14": S59,
  },
};

