"""Package list for setuptools: the servers in servers/ ship as prove_env.servers.<name>.

Every sub-folder of servers/ with an __init__.py becomes a package, so a new server needs no
packaging edit.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        "prove_env",
        *("prove_env." + p for p in find_packages("prove_env")),
        "prove_env.servers",
        *("prove_env.servers." + p for p in find_packages("servers")),
        "prove_env.fixtures",
        "prove_env.fixtures.tasks",  # data only: the shipped task files
    ],
    # verifiers imports a taskset by a top-level module name (`vf-eval prove-env-verifiers`)
    py_modules=["prove_env_verifiers"],
)
