"""Reads unpool_onnx's pattern back out of an exported onnx.ModelProto, node
by node and constant by constant, as python/README.md writes it down.

find_pools(model) and find_unpools(model) return what each MaxPool and
MaxUnpool says (attributes, plane sizes) and fail with an AssertionError
naming the node where the graph differs from the pattern.
"""
from onnx import numpy_helper


class Graph:
    def __init__(self, model):
        self.nodes = list(model.graph.node)
        self.producer = {o: n for n in self.nodes for o in n.output}
        self.consumers = {}
        for n in self.nodes:
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
        self.initializers = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}

    def node(self, value, op_type):
        n = self.producer.get(value)
        assert n is not None and n.op_type == op_type, \
            f"{value}: produced by {n.op_type if n else 'nothing'}, expected {op_type}"
        return n

    def const(self, value):
        """The int64 constant `value` as a list (or an int for a scalar)."""
        n = self.node(value, "Constant")
        t = numpy_helper.to_array(n.attribute[0].t)
        assert t.dtype.name == "int64", f"{value}: a {t.dtype} Constant, expected int64"
        return t.tolist()


def attrs(node):
    from onnx import helper
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def batch_channels(g, value):
    """value = Slice(Shape(T), [0], [2], [0]); returns T."""
    sl = g.node(value, "Slice")
    assert len(sl.input) == 4, f"{sl.name}: Slice with {len(sl.input)} inputs"
    assert [g.const(v) for v in sl.input[1:]] == [[0], [2], [0]], f"{sl.name}: not Slice [0:2] on axis 0"
    return g.node(sl.input[0], "Shape").input[0]


def plane_offsets(g, value):
    """value = PlaneOffsets(T, P); returns (T, P, dims)."""
    reshape = g.node(value, "Reshape")
    mul = g.node(reshape.input[0], "Mul")
    plane = g.const(mul.input[1])
    assert isinstance(plane, int), f"{mul.name}: the plane size is not a scalar Constant"
    rng = g.node(mul.input[0], "Range")
    assert g.const(rng.input[0]) == 0 and g.const(rng.input[2]) == 1, f"{rng.name}: not Range(0, count, 1)"
    prod = g.node(rng.input[1], "ReduceProd")
    assert attrs(prod) == {"keepdims": 0} and len(prod.input) == 1, f"{prod.name}: not ReduceProd(keepdims=0)"
    concat = g.node(reshape.input[1], "Concat")
    assert attrs(concat) == {"axis": 0} and len(concat.input) == 2, f"{concat.name}: not Concat(axis=0) of two"
    assert concat.input[0] == prod.input[0], f"{concat.name}: does not concat the same (N, C)"
    ones = g.const(concat.input[1])
    assert set(ones) == {1}, f"{concat.name}: {ones}, expected ones"
    return batch_channels(g, prod.input[0]), plane, len(ones)


def find_pools(model):
    """Per MaxPool: its attributes, the plane size of its index conversion,
    and the per-plane indices' name."""
    g = Graph(model)
    found = []
    for n in g.nodes:
        if n.op_type != "MaxPool":
            continue
        a = attrs(n)
        assert len(n.output) == 2, f"{n.name}: MaxPool without its Indices output"
        assert a.get("storage_order") == 0, f"{n.name}: storage_order {a.get('storage_order')}, expected 0"
        assert "ceil_mode" in a, f"{n.name}: no ceil_mode"
        assert "dilations" not in a or set(a["dilations"]) != {1}, f"{n.name}: dilations of 1 not omitted"
        subs = [c for c in g.consumers.get(n.output[1], [])]
        assert len(subs) == 1 and subs[0].op_type == "Sub" and subs[0].input[0] == n.output[1], \
            f"{n.name}: Indices not consumed by one Sub(I_flat, offsets)"
        t, plane, dims = plane_offsets(g, subs[0].input[1])
        assert t == n.output[0], f"{subs[0].name}: offsets from {t}, not from the pool's Y"
        assert dims == len(a["kernel_shape"]), f"{n.name}: offsets of rank {dims}"
        found.append({"attrs": a, "plane": plane, "indices": subs[0].output[0], "node": n})
    return found


def find_unpools(model):
    """Per MaxUnpool: its spatial output size, the plane size of its offsets,
    and the (per-plane) indices it was given."""
    g = Graph(model)
    found = []
    for n in g.nodes:
        if n.op_type != "MaxUnpool":
            continue
        a = attrs(n)
        dims = len(a["kernel_shape"])
        assert a == {"kernel_shape": [1] * dims, "strides": [1] * dims}, f"{n.name}: attributes {a}"
        y, flat, shape = n.input
        add = g.node(flat, "Add")
        t, plane, odims = plane_offsets(g, add.input[1])
        assert t == y and odims == dims, f"{add.name}: offsets not from the unpool's input"
        concat = g.node(shape, "Concat")
        assert attrs(concat) == {"axis": 0} and len(concat.input) == 2, f"{concat.name}: output_shape"
        assert batch_channels(g, concat.input[0]) == y, f"{concat.name}: (N, C) not from the unpool's input"
        spatial = g.const(concat.input[1])
        assert len(spatial) == dims and plane == _prod(spatial), f"{n.name}: plane {plane} for {spatial}"
        found.append({"spatial": spatial, "plane": plane, "indices": add.input[0], "node": n})
    return found


def _prod(sizes):
    p = 1
    for s in sizes:
        p *= s
    return p


def producer_chain(model, value):
    """The op types from `value` back through Unsqueeze/Squeeze/Identity."""
    g = Graph(model)
    kinds = []
    while value in g.producer and g.producer[value].op_type in ("Unsqueeze", "Squeeze", "Identity"):
        kinds.append(g.producer[value].op_type)
        value = g.producer[value].input[0]
    return kinds, value
