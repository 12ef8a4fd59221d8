"""The ``agent`` deploy interface: the deploy ramdisk's agent writes the
image and cleans the disks, driven over its REST API (the
ironic-python-agent command API, see agent_client.py).

The conductor runs the work as the node flows in conductor/flows/
(deploy.py, clean.py), started by conductor/flows/runner.py: they are
persisted so that another conductor resumes them, which is why they live
with the conductor and not here.
"""

from ironic_like.drivers import base


class AgentDeploy(base.FlowDeployInterface):

    def get_properties(self):
        return {
            'image_download_source': 'Specifies whether direct deploy '
                                     'interface should try to use the '
                                     'image source directly or if the '
                                     'conductor should cache the image '
                                     'and serve it from its own HTTP '
                                     'server. Accepted values are '
                                     '"swift", "http" and "local" '
                                     '(instance_info\'s wins; default: '
                                     '[agent]image_download_source). '
                                     'Optional.'}

    def validate(self, task):
        task.driver.boot.validate(task)
