"""An atomic add on one element of a numba array, for statistics several threads update at once."""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def atomic_add(typingctx, array, index, value):
    """array[index] += value as one indivisible read-modify-write (LLVM's atomicrmw).

    Callable only from numba-compiled code. Floats use atomicrmw fadd, which
    x86 runs as a compare-and-swap loop; integers a locked add. Ordering is
    monotonic: the add itself is never lost, and nothing else is ordered by it.
    A plain `array[index] += value` from two threads can lose an update, and a
    thread preempted between its read and its write loses every update the
    other threads made meanwhile.
    """
    if not isinstance(array, types.Array) or not isinstance(array.dtype, (types.Float,
                                                                          types.Integer)):
        return None
    sig = types.void(array, index, value)

    def codegen(context, builder, signature, args):
        array_type, _, value_type = signature.args
        array_value, index_value, added = args
        data = context.make_array(array_type)(context, builder, array_value)
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [index_value])
        added = context.cast(builder, added, value_type, array_type.dtype)
        operation = "fadd" if isinstance(array_type.dtype, types.Float) else "add"
        builder.atomic_rmw(operation, pointer, added, "monotonic")
        return context.get_dummy_value()

    return sig, codegen
