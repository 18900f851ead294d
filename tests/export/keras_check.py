"""keras_check.py WEIGHTS.h5 SNIPPET.py X.h5 DATASET

TensorFlow cannot be installed here, so this runs the Python snippet that
`heurnet export --format keras` prints against a stand-in for tf.keras:
the layer classes record their settings, `load_weights` follows Keras'
legacy HDF5 loader (layers with weights matched by order, weight_names
read per layer, shapes checked), and the forward pass applies Keras'
inference semantics. Prints one line per input row."""
import sys
import types

import h5py
import numpy as np


def as_str(v):
    return v.decode("utf8") if isinstance(v, bytes) else str(v)


class Layer:
    def __init__(self, *args, name=None, **kw):
        self.args, self.kw, self.name, self.values = args, kw, name, None

    def shapes(self, width):  # weight shapes given the input width
        return []

    def width(self, width):
        return width


class Dense(Layer):
    def shapes(self, width):
        return [(width, self.args[0]), (self.args[0],)]

    def width(self, width):
        return self.args[0]

    def __call__(self, x):
        return x @ self.values[0] + self.values[1]


class BatchNormalization(Layer):
    def shapes(self, width):
        return [(width,)] * 4  # gamma, beta, moving_mean, moving_variance

    def __call__(self, x):
        gamma, beta, mean, var = self.values
        eps = self.kw.get("epsilon", 1e-3)
        return (x - mean) / np.sqrt(var + eps) * gamma + beta


class Activation(Layer):
    def __call__(self, x):
        kind = self.args[0]
        if kind == "relu":
            return np.maximum(x, 0)
        assert kind == "elu", kind  # keras.activations.elu: alpha 1
        return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))


class ELU(Layer):
    def __call__(self, x):
        return np.where(x > 0, x, self.kw.get("alpha", 1.0) * np.expm1(np.minimum(x, 0)))


class Dropout(Layer):
    def __call__(self, x):  # inference: identity
        assert 0 <= self.args[0] < 1
        return x


class Rescaling(Layer):
    def __call__(self, x):
        return x * self.kw["scale"] + self.kw.get("offset", 0.0)


class Input:
    def __init__(self, shape):
        self.shape = shape


class Sequential:
    def __init__(self, items, name=None):
        self.input, self.layers = items[0], items[1:]
        assert isinstance(self.input, Input)

    def load_weights(self, path):
        with h5py.File(path, "r") as f:
            assert as_str(f.attrs["backend"]) == "tensorflow"
            assert "keras_version" in f.attrs
            names = [as_str(n) for n in f.attrs["layer_names"]]
            # Every layer is listed, weightless ones too, in model order.
            assert names == [l.name for l in self.layers], (names, [l.name for l in self.layers])
            with_weights = [n for n in names if len(f[n].attrs["weight_names"]) > 0]
            width, model_layers = self.input.shape[0], []
            for layer in self.layers:
                if layer.shapes(width):
                    model_layers.append((layer, layer.shapes(width)))
                width = layer.width(width)
            assert len(with_weights) == len(model_layers), "layer count with weights differs"
            for name, (layer, shapes) in zip(with_weights, model_layers):
                wn = [as_str(w) for w in f[name].attrs["weight_names"]]
                values = [f[name][w][...] for w in wn]
                assert [v.shape for v in values] == shapes, (name, [v.shape for v in values], shapes)
                assert all(v.dtype == np.float32 for v in values)
                layer.values = [v.astype(np.float64) for v in values]
            for layer in self.layers:  # documented dataset paths
                if isinstance(layer, Dense):
                    assert f"{layer.name}/{layer.name}/kernel:0" in f and f"{layer.name}/{layer.name}/bias:0" in f
                if isinstance(layer, BatchNormalization):
                    wn = [as_str(w) for w in f[layer.name].attrs["weight_names"]]
                    assert wn == [f"{layer.name}/{k}:0" for k in ("gamma", "beta", "moving_mean", "moving_variance")], wn

    def predict(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def fake_tensorflow():
    layers = types.ModuleType("tensorflow.keras.layers")
    for cls in (Dense, BatchNormalization, Activation, ELU, Dropout, Rescaling):
        setattr(layers, cls.__name__, cls)
    keras = types.ModuleType("tensorflow.keras")
    keras.layers, keras.Sequential, keras.Input = layers, Sequential, Input
    tf = types.ModuleType("tensorflow")
    tf.keras = keras
    sys.modules.update({"tensorflow": tf, "tensorflow.keras": keras, "tensorflow.keras.layers": layers})


def main():
    weights, snippet, data, name = sys.argv[1:5]
    fake_tensorflow()
    scope = {}
    with open(snippet) as f:
        code = f.read()
    assert f"model.load_weights({weights!r})" in code.replace('"', "'")
    exec(compile(code, snippet, "exec"), scope)
    with h5py.File(data, "r") as f:
        x = f[name][...].astype(np.float64)
    np.savetxt(sys.stdout, scope["model"].predict(x), fmt="%.9g", delimiter="\t")


main()
