"""The lab's accelerators (doc/accelerators.md), shown working by --cycle.

The lab gives its simulated machines PCI accelerators (agent option
``accelerators`` in the fleet file): every 4th machine (index % 4 == 0) a
blank FPGA with one partially reconfigurable region, every index % 4 == 1
a GPU, the others none. It writes a bitstream index (``index.json`` and
one bitstream, ``gzip``, for that region type) that the embedded service
reads (``[accelerators] image_service = index``, ``index_url``: see
service_conf()). Around --cycle's deploy (see AcceleratorStage), over HTTP
only (nothing of the service is imported):

- before it: the devices discovery found (during cleaning) are counted,
  and each FPGA node asks for an FPGA holding gzip, each GPU node for a
  GPU (``instance_info.flavor_extra_specs``);
- after it: each FPGA node has one ``attached`` accelerator and its
  machine's region holds the very bytes of the bitstream; each GPU node
  has its GPU attached;
- after the undeploy: no attach handle is in use any more.

A deployment given with --api-url needs ``[accelerators] image_service =
index`` and ``index_url`` pointing at ``<workdir>/bitstreams``; when it
reports no accelerator at all on the FPGA nodes after the provide, the
checks are skipped (with a line saying so).
"""

import hashlib
import json
import os

import requests

from ironic_like_lab import hostos_stage

FPGA = 'FPGA'
GPU = 'GPU'
# The FPGA: a PF with two VFs, one region (no function loaded) whose
# type the bitstream is built for; its handles are the device's (the
# region lists no PCI address of its own).
FPGA_VENDOR_ID = '8086'
FPGA_PRODUCT_ID = '09c4'
FPGA_PF = '0000:5e:00.0'
FPGA_VFS = ('0000:5e:01.0', '0000:5e:01.1')
REGION_TYPE_UUID = '9a3f6d1e-2b7c-4e85-a1d0-5c6b7e8f9a01'
REGION_INDEX = 0
# The GPU: a PF, no VF.
GPU_VENDOR_ID = '10de'
GPU_PRODUCT_ID = '1eb8'
GPU_PCI = '0000:3b:00.0'
# The bitstream index: one image, gzip for the region type above.
SUBDIR = 'bitstreams'
INDEX_FILE = 'index.json'
IMAGE_ID = 'lab-gzip'
IMAGE_FILE = 'lab-gzip.bin'
FUNCTION_NAME = 'gzip'
FUNCTION_UUID = '3e0c5f7a-8d21-4b6e-9f43-1a2b3c4d5e6f'
VENDOR = 'intel'
BITSTREAM_BYTES = 256 * 1024
HASH_ALGO = 'sha256'

HEADERS = hostos_stage.HEADERS
ATTACHED = 'attached'


def kind_of(index):
    """FPGA, GPU or None: the accelerator of the lab's machine ``index``."""
    return {0: FPGA, 1: GPU}.get(index % 4)


def fpga():
    """A blank FPGA, in the inventory format of doc/accelerators.md."""
    return {'type': FPGA, 'vendor_id': FPGA_VENDOR_ID,
            'product_id': FPGA_PRODUCT_ID, 'pci_address': FPGA_PF,
            'virtual_functions': list(FPGA_VFS),
            'regions': [{'region_type_uuid': REGION_TYPE_UUID,
                         'partial_reconfiguration': True,
                         'pci_addresses': [], 'function': None}]}


def gpu():
    return {'type': GPU, 'vendor_id': GPU_VENDOR_ID,
            'product_id': GPU_PRODUCT_ID, 'pci_address': GPU_PCI,
            'virtual_functions': []}


def agent_options(index):
    """The simulated agent options of machine ``index``: its accelerators
    (``{}`` for a machine without)."""
    kind = kind_of(index)
    if kind is None:
        return {}
    return {'accelerators': [fpga() if kind == FPGA else gpu()]}


def extra_specs(kind):
    """What a node's instance asks for (``flavor_extra_specs``)."""
    if kind == FPGA:
        return {'resources:FPGA': '1', 'accel:function_id': FUNCTION_UUID}
    return {'resources:PGPU': '1'}


def bitstream(size=BITSTREAM_BYTES):
    """The gzip bitstream: ``size`` pseudo-random bytes, the same every
    time."""
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(b'ironic-like-lab gzip %d' % counter).digest()
        counter += 1
    return bytes(out[:size])


def write_index(directory):
    """Write ``directory``/index.json and the bitstream file (what the
    service's ``images.write_index`` writes, without importing it);
    answers the image's entry."""
    os.makedirs(directory, exist_ok=True)
    data = bitstream()
    with open(os.path.join(directory, IMAGE_FILE), 'wb') as f:
        f.write(data)
    entry = {'id': IMAGE_ID, 'name': FUNCTION_NAME, 'file': IMAGE_FILE,
             'size': len(data),
             'checksum': hashlib.md5(data, usedforsecurity=False)
             .hexdigest(),
             'os_hash_algo': HASH_ALGO,
             'os_hash_value': hashlib.new(HASH_ALGO, data).hexdigest(),
             'properties': {'accel:function_uuid': FUNCTION_UUID,
                            'accel:function_name': FUNCTION_NAME,
                            'accel:region_type_uuid': REGION_TYPE_UUID,
                            'accel:vendor': VENDOR}}
    # The service reads the index again on every query: never half a file.
    path = os.path.join(directory, INDEX_FILE)
    with open(path + '.tmp', 'w') as f:
        json.dump({'images': [entry]}, f, indent=1, sort_keys=True)
    os.replace(path + '.tmp', path)
    return entry


def service_conf(directory):
    """The embedded service's configuration for the index."""
    return '[accelerators]\nimage_service = index\nindex_url = %s\n' \
        % directory


def _plural(count, word):
    return '%d %s%s' % (count, word, '' if count == 1 else 's')


class AcceleratorStage(object):
    """The checks around one --cycle deploy for ``lab`` (a lab.Lab:
    api_url, sim_url, nodes, systems, bitstreams, log)."""

    def __init__(self, lab):
        self.lab = lab
        self.log = lab.log
        # False once the deployment turned out to report no accelerator.
        self.active = True

    def _nodes(self, kind):
        """(node uuid, simulator agent id) of the lab's ``kind`` nodes."""
        return [(uuid, system['uuid'])
                for index, (system, uuid) in enumerate(
                    zip(self.lab.systems, self.lab.nodes))
                if kind_of(index) == kind]

    def _get(self, path):
        status, doc = hostos_stage.call(self.lab, 'GET', path)
        if status != 200:
            hostos_stage._fail('GET', path, status, doc)
        return doc

    # ----------------------------------------------------- before deploy
    def discovered(self):
        """{node uuid: [device type, ...]} of the lab's nodes, as the API
        reports them (discovery ran during the provide's cleaning)."""
        status, doc = hostos_stage.call(self.lab, 'GET',
                                        '/v1/accelerators/devices')
        if status == 404:
            return {}  # a deployment without accelerators
        if status != 200:
            hostos_stage._fail('GET', '/v1/accelerators/devices', status,
                               doc)
        ours = set(self.lab.nodes)
        found = {}
        for device in doc.get('devices') or []:
            if device.get('node_uuid') in ours:
                found.setdefault(device['node_uuid'], []).append(
                    device.get('type'))
        return found

    def before_deploy(self):
        """Log the discovered counts; ask for the accelerators (patch
        ``flavor_extra_specs``). Skips the stage when the API reports no
        accelerator on the FPGA nodes; raises when it reports some but
        not all of the lab's."""
        fpgas, gpus = self._nodes(FPGA), self._nodes(GPU)
        found = self.discovered()
        counts = {FPGA: 0, GPU: 0}
        for types in found.values():
            for kind in types:
                if kind in counts:
                    counts[kind] += 1
        self.log('  accelerators discovered: %s, %s (machines with one: '
                 '%d, %d)' % (_plural(counts[FPGA], 'FPGA'),
                              _plural(counts[GPU], 'GPU'), len(fpgas),
                              len(gpus)))
        if fpgas and not any(FPGA in found.get(uuid, ())
                             for uuid, _id in fpgas):
            self.active = False
            self.log('  accelerators: the API reports none on the FPGA '
                     'nodes, skipping their stage (a deployment given with '
                     '--api-url needs [accelerators] image_service = index '
                     'and index_url = %s)' % self.lab.bitstreams)
            return
        missing = [uuid for kind, nodes in ((FPGA, fpgas), (GPU, gpus))
                   for uuid, _id in nodes if kind not in found.get(uuid, ())]
        if missing:
            raise RuntimeError('accelerators: discovery found none on %d of '
                               'the %d nodes with one, e.g. %s'
                               % (len(missing), len(fpgas) + len(gpus),
                                  missing[:5]))
        for kind, nodes in ((FPGA, fpgas), (GPU, gpus)):
            for uuid, _id in nodes:
                path = '/v1/nodes/%s' % uuid
                status, doc = hostos_stage.call(self.lab, 'PATCH', path, [
                    {'op': 'add', 'path': '/instance_info/flavor_extra_specs',
                     'value': extra_specs(kind)}])
                if status != 200:
                    hostos_stage._fail('PATCH', path, status, doc)

    # ------------------------------------------------------ after deploy
    def _attachment(self, uuid, problems):
        """The node's only attachment when it is attached, else None (the
        problem noted)."""
        doc = self._get('/v1/nodes/%s/accelerators' % uuid)
        attachments = doc.get('attachments') or []
        if (len(attachments) != 1
                or attachments[0].get('state') != ATTACHED):
            problems.append('%s: %s' % (uuid, [
                (a.get('state'), a.get('pci_address'), a.get('last_error'))
                for a in attachments] or 'no attachment'))
            return None
        return attachments[0]

    def _programmed(self, agent_id):
        """The bytes the machine's FPGA region was last programmed with,
        or None."""
        resp = requests.get('%s/control/agents/%s/accelerators/%s/%d/'
                            'bitstream' % (self.lab.sim_url, agent_id,
                                           FPGA_PF, REGION_INDEX),
                            timeout=30)
        return resp.content if resp.status_code == 200 else None

    def after_deploy(self):
        """Raise unless every FPGA node has one attached accelerator (a
        handle of its FPGA) and its machine's region holds the bitstream's
        bytes, and every GPU node its GPU attached."""
        if not self.active:
            return
        with open(os.path.join(self.lab.bitstreams, IMAGE_FILE), 'rb') as f:
            expected = f.read()
        problems = []
        fpgas, gpus = self._nodes(FPGA), self._nodes(GPU)
        for uuid, agent_id in fpgas:
            attachment = self._attachment(uuid, problems)
            if attachment is None:
                continue
            if attachment.get('pci_address') not in FPGA_VFS:
                problems.append('%s: attached at %s, not at a VF of its '
                                'FPGA' % (uuid, attachment.get('pci_address')))
                continue
            data = self._programmed(agent_id)
            if data != expected:
                problems.append('%s: its machine\'s FPGA region holds %s' % (
                    uuid, 'nothing' if data is None else
                    '%d other bytes (sha256 %s)'
                    % (len(data), hashlib.sha256(data).hexdigest())))
        for uuid, _agent_id in gpus:
            attachment = self._attachment(uuid, problems)
            if (attachment is not None
                    and attachment.get('pci_address') != GPU_PCI):
                problems.append('%s: attached at %s, not %s' % (
                    uuid, attachment.get('pci_address'), GPU_PCI))
        if problems:
            raise RuntimeError('accelerators after the deploy: %d nodes '
                               'wrong, e.g. %s'
                               % (len(problems), '; '.join(problems[:3])))
        self.log('  accelerators: %s programmed with %s (bytes checked), '
                 '%s attached' % (_plural(len(fpgas), 'FPGA'), FUNCTION_NAME,
                                  _plural(len(gpus), 'GPU')))

    # ---------------------------------------------------- after undeploy
    def after_undeploy(self):
        """Raise unless no attach handle of the lab's nodes is in use."""
        if not self.active:
            return
        path = '/v1/accelerators/attach_handles?in_use=true'
        ours = set(self.lab.nodes)
        in_use = [h for h in self._get(path).get('attach_handles') or []
                  if h.get('node_uuid') in ours]
        if in_use:
            raise RuntimeError(
                'accelerators after the undeploy: %d attach handles still '
                'in use, e.g. %s' % (len(in_use), [
                    (h.get('node_uuid'), h.get('pci_address'))
                    for h in in_use[:3]]))
        self.log('  accelerators released: no attach handle in use')
