"""Ships gather_lint_runtime.pth next to the package (site-packages), for regular and editable installs.

The .pth is the startup hook behind `GATHER_LINT_RUNTIME=raise python script.py`; everything else
is configured in pyproject.toml.
"""
from pathlib import Path

from setuptools import Command, setup
from setuptools.command.build import build
from setuptools.command.editable_wheel import editable_wheel

PTH = "gather_lint_runtime.pth"
HERE = Path(__file__).parent


class build_pth(Command):
    description = f"copy {PTH} into the build"
    user_options = []

    def initialize_options(self):
        self.build_lib = None
        self.editable_mode = False

    def finalize_options(self):
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def run(self):
        target = Path(self.build_lib) / PTH
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((HERE / PTH).read_text())

    def get_outputs(self):
        return [str(Path(self.build_lib) / PTH)]

    def get_output_mapping(self):
        return {str(Path(self.build_lib) / PTH): PTH}

    def get_source_files(self):
        return [PTH]  # relative: setuptools refuses absolute source paths


class build_with_pth(build):
    sub_commands = [*build.sub_commands, ("build_pth", None)]


class editable_wheel_with_pth(editable_wheel):
    """`pip install -e .`: the editable wheel carries only what lands in its unpacked folder."""

    def _run_build_commands(self, dist_name, unpacked_wheel, build_lib, tmp_dir):
        files, mapping = super()._run_build_commands(dist_name, unpacked_wheel, build_lib, tmp_dir)
        (Path(unpacked_wheel) / PTH).write_text((HERE / PTH).read_text())
        return files, mapping


setup(cmdclass={"build": build_with_pth, "build_pth": build_pth, "editable_wheel": editable_wheel_with_pth})
