// How errors reach Python: C++ exceptions become Python ones with text that is always valid UTF-8, and a
// call whose arguments pybind11 cannot convert gets a message naming the argument and what it expected
// instead of pybind11's dump of every signature.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pybind11/numpy.h>

#include "meeple/ai/match.h"
#include "bindings.h"

namespace meeple::python {
namespace {

// A C++ exception's text may quote input that is not UTF-8 (a record's bytes); Python would refuse to
// make a str of it and raise UnicodeDecodeError instead of the error meant. Bad bytes become U+FFFD.
void set_error(PyObject* type, const char* what) {
  PyObject* text = PyUnicode_DecodeUTF8(what, static_cast<Py_ssize_t>(std::strlen(what)), "replace");
  if (!text) return;  // out of memory: that error is set
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

// ---- Arguments pybind11 could not convert ----

struct Param {
  std::string name, type;
  bool required;
};

// Splits `text` at `sep` outside brackets and quotes.
std::vector<std::string> split_top(std::string_view text, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::string current;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '[' || c == '(' || c == '{' || c == '<') {
      ++depth;
    } else if (c == ']' || c == ')' || c == '}' || c == '>') {
      --depth;
    } else if (c == sep && depth == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  out.push_back(current);
  return out;
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// A parameter's type as pybind11 2 or 3 spells it ("List[str]", "collections.abc.Sequence[str]",
// "typing.SupportsInt | typing.SupportsIndex", "Optional[int]") in one form, as a user reads it:
// "list[str]", "int", "int | None", "meeple.State".
std::string normalize(std::string_view type) {
  const std::string t = trim(type);
  std::vector<std::string> alternatives;
  const std::vector<std::string> parts = split_top(t, '|');
  for (const std::string& a : parts) {
    if (parts.size() == 1) break;
    const std::string n = normalize(a);
    const bool numeric = n == "int" || n == "float";
    if (std::find(alternatives.begin(), alternatives.end(), n) != alternatives.end()) continue;
    if (numeric && std::find(alternatives.begin(), alternatives.end(), "float") != alternatives.end()) continue;
    if (n == "float") std::erase(alternatives, std::string("int"));  // SupportsFloat | SupportsIndex: a float
    alternatives.push_back(n);
  }
  if (!alternatives.empty()) {
    if (std::erase(alternatives, std::string("None"))) alternatives.push_back("None");
    return join(alternatives, " | ");
  }
  const size_t open = t.find('[');
  if (open != std::string::npos && t.back() == ']') {
    const std::string name = t.substr(0, open);
    std::vector<std::string> items;
    for (const std::string& item : split_top(std::string_view(t).substr(open + 1, t.size() - open - 2), ','))
      items.push_back(normalize(item));
    if (name == "Optional" || name == "typing.Optional") return items[0] + " | None";
    for (const char* seq : {"List", "list", "typing.List", "collections.abc.Sequence", "typing.Sequence"})
      if (name == seq) return "list[" + join(items, ", ") + "]";
    for (const char* tuple : {"Tuple", "tuple", "typing.Tuple"})
      if (name == tuple) return "tuple[" + join(items, ", ") + "]";
    for (const char* dict : {"Dict", "dict", "typing.Dict", "collections.abc.Mapping"})
      if (name == dict) return "dict[" + join(items, ", ") + "]";
    return t;
  }
  if (t == "typing.SupportsInt" || t == "typing.SupportsIndex") return "int";
  if (t == "typing.SupportsFloat") return "float";
  if (t.starts_with("meeple._meeple.")) return "meeple." + t.substr(15);
  return t;
}

// The signatures in a pybind11 docstring: "name(a: T, b: U = x) -> R", or numbered ones when overloaded.
std::vector<std::vector<Param>> signatures(const std::string& doc, const std::string& name) {
  std::vector<std::vector<Param>> out;
  size_t at = 0;
  while (at < doc.size()) {
    size_t end = doc.find('\n', at);
    if (end == std::string::npos) end = doc.size();
    std::string line = doc.substr(at, end - at);
    at = end + 1;
    if (const size_t dot = line.find(". "); dot != std::string::npos && dot > 0 && dot < 4 &&
                                            line.find_first_not_of("0123456789") == dot)
      line = line.substr(dot + 2);
    if (line.rfind(name + "(", 0) != 0 || line.find(" -> ") == std::string::npos) continue;
    const size_t open = name.size(), close = line.rfind(" -> ");
    if (line[close - 1] != ')') continue;
    std::vector<Param> params;
    const std::string inside = line.substr(open + 1, close - 1 - open - 1);
    if (!trim(inside).empty())
      for (const std::string& p : split_top(inside, ',')) {
        const std::vector<std::string> name_rest = split_top(p, ':');
        Param param{trim(name_rest[0]), "object", true};
        if (param.name == "/" || param.name == "*") continue;  // markers of positional-only, keyword-only
        if (name_rest.size() > 1) {
          const std::string rest = p.substr(p.find(':') + 1);
          const size_t eq = rest.find(" = ");
          param.type = normalize(rest.substr(0, eq));
          param.required = eq == std::string::npos;
        }
        params.push_back(param);
      }
    out.push_back(params);
  }
  return out;
}

struct Complaint {
  PyObject* type;  // TypeError, or ValueError for a value of the right type but out of range
  std::string message;
};

// Whether pybind11 (in its converting pass) could take `value` as `type` (normalized); types it does not
// know are taken as matching, so nothing is blamed wrongly.
bool matches(py::handle value, const std::string& type) {
  PyObject* v = value.ptr();
  if (const std::vector<std::string> alternatives = split_top(type, '|'); alternatives.size() > 1) {
    for (const std::string& a : alternatives)
      if (matches(value, trim(a))) return true;
    return false;
  }
  if (type == "None") return value.is_none();
  if (type == "int") return !PyFloat_Check(v) && PyIndex_Check(v);
  if (type == "float") return PyFloat_Check(v) || PyIndex_Check(v) || (Py_TYPE(v)->tp_as_number && Py_TYPE(v)->tp_as_number->nb_float);
  if (type == "bool") return value.is_none() || (Py_TYPE(v)->tp_as_number && Py_TYPE(v)->tp_as_number->nb_bool);
  if (type == "str") return PyUnicode_Check(v) || PyBytes_Check(v);
  if (type == "bytes") return PyBytes_Check(v);
  if (type == "dict") return PyDict_Check(v);
  if (type == "list") return PyList_Check(v);
  if (type == "numpy.ndarray" || type.starts_with("numpy.ndarray[")) return py::isinstance<py::array>(value);
  const size_t open = type.find('[');
  const std::string name = type.substr(0, open);
  if (open != std::string::npos && (name == "list" || name == "tuple" || name == "dict")) {
    std::vector<std::string> items;
    for (const std::string& item : split_top(std::string_view(type).substr(open + 1, type.size() - open - 2), ','))
      items.push_back(trim(item));
    if (name == "dict") {
      if (!PyDict_Check(v)) return false;
      for (auto [k, x] : py::reinterpret_borrow<py::dict>(value))
        if (!matches(k, items[0]) || !matches(x, items.at(1))) return false;
      return true;
    }
    if (!PySequence_Check(v) || PyUnicode_Check(v) || PyBytes_Check(v)) return false;
    const py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
    if (name == "tuple" && seq.size() != items.size()) return false;
    for (size_t i = 0; i < seq.size(); ++i)
      if (!matches(seq[i], items[name == "tuple" ? i : 0])) return false;
    return true;
  }
  if (type.starts_with("meeple.")) {
    const py::object module = py::module_::import("meeple._meeple");
    return !py::hasattr(module, type.substr(7).c_str()) || py::isinstance(value, module.attr(type.substr(7).c_str()));
  }
  return true;
}

bool is_negative_or_wide(py::handle value) {
  const py::int_ i = py::reinterpret_borrow<py::object>(value);
  return i < py::int_(0) || i >= py::int_(int64_t{1} << 31);
}

// What is wrong with a call of a function with these parameters, or nothing when the arguments look right.
std::optional<Complaint> complain(const std::vector<Param>& params, PyObject* const* args, size_t positional,
                                  PyObject* kwnames) {
  std::vector<std::optional<py::handle>> bound(params.size());
  const auto names = [&] {
    std::string out;
    for (const Param& p : params)
      if (p.name != "self") out += (out.empty() ? "" : ", ") + p.name + ": " + p.type;
    return "(" + out + ")";
  };
  if (positional > params.size()) {
    const size_t self = !params.empty() && params[0].name == "self";  // not counted: the caller did not write it
    const auto arguments = [](size_t n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); };
    return Complaint{PyExc_TypeError, "takes " + arguments(params.size() - self) + " " + names() + ", got " +
                                          std::to_string(positional - self)};
  }
  for (size_t i = 0; i < positional; ++i) bound[i] = args[i];
  const size_t keywords = kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0;
  for (size_t k = 0; k < keywords; ++k) {
    const std::string key = py::str(PyTuple_GET_ITEM(kwnames, k));
    size_t i = 0;
    while (i < params.size() && params[i].name != key) ++i;
    if (i == params.size()) return Complaint{PyExc_TypeError, "has no argument '" + key + "'; its arguments are " + names()};
    if (bound[i]) return Complaint{PyExc_TypeError, "got argument '" + key + "' twice"};
    bound[i] = args[positional + k];
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i] && params[i].required)
      return Complaint{PyExc_TypeError, "missing argument '" + params[i].name + "' (" + params[i].type + ")"};
    // A rules text converts to Rules (implicitly_convertible): one that does not parse says why.
    if (bound[i] && params[i].type.ends_with(".Rules") && PyUnicode_Check(bound[i]->ptr())) {
      try {
        (void)Rules::parse(py::cast<std::string>(*bound[i]));
        continue;  // a good text: some other argument is at fault
      } catch (const std::invalid_argument& e) {
        return Complaint{PyExc_ValueError, "argument '" + params[i].name + "': " + e.what()};
      } catch (const py::error_already_set&) {  // not UTF-8 (a lone surrogate)
        return Complaint{PyExc_ValueError, "argument '" + params[i].name + "': the rules text is not valid UTF-8"};
      } catch (const py::cast_error&) {
        return Complaint{PyExc_ValueError, "argument '" + params[i].name + "': the rules text is not valid UTF-8"};
      }
    }
    if (bound[i] && !matches(*bound[i], params[i].type))
      return Complaint{PyExc_TypeError, "argument '" + params[i].name + "' must be " + params[i].type + ", got " +
                                            describe(*bound[i])};
  }
  // Every type fits: an integer that does not fit its C++ type (a negative seed, a size beyond 32 bits), or
  // text that is not UTF-8 (a lone surrogate, as from a file read with errors="surrogateescape").
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i]) continue;
    const std::string argument = "argument '" + params[i].name + "'";
    if ((params[i].type == "int" || params[i].type == "int | None") && PyLong_Check(bound[i]->ptr()) && is_negative_or_wide(*bound[i]))
      return Complaint{PyExc_ValueError, argument + " is out of range, got " + describe(*bound[i])};
    if (params[i].type == "str" && PyUnicode_Check(bound[i]->ptr())) try {
        utf8_text(*bound[i], argument);
      } catch (const std::invalid_argument& e) {
        return Complaint{PyExc_ValueError, e.what()};
      }
  }
  return std::nullopt;
}

// One function of the module, wrapped: calls go straight to pybind11's function; only when it refuses the
// arguments is its error replaced by one naming the argument.
struct Checked {
  PyMethodDef def{};
  std::string name, label, doc;  // label: how the message names the call ("State.apply", "State")
  py::object original;
};

PyObject* call_checked(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  const Checked& c = *static_cast<const Checked*>(PyCapsule_GetPointer(self, nullptr));
  PyObject* result = PyObject_Vectorcall(c.original.ptr(), args, static_cast<size_t>(nargsf), kwnames);
  if (result || !PyErr_ExceptionMatches(PyExc_TypeError)) return result;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  try {
    const std::string message = value ? std::string(py::str(value)) : "";
    if (message.find(": incompatible function arguments") != std::string::npos ||
        message.find(": incompatible constructor arguments") != std::string::npos) {
      const size_t positional = static_cast<size_t>(PyVectorcall_NARGS(nargsf));
      std::optional<Complaint> complaint;
      for (const auto& params : signatures(c.doc, c.name))
        if ((complaint = complain(params, args, positional, kwnames))) break;
      if (!complaint) {  // no argument to blame by its type: name them all
        std::string given;
        const size_t n = positional + (kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0);
        for (size_t i = 0; i < n; ++i) given += (i ? ", " : "") + describe(args[i]);
        complaint = Complaint{PyExc_TypeError, "cannot take the arguments (" + given + ")"};
      }
      Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(traceback);
      set_error(complaint->type, (c.label + "(): " + complaint->message).c_str());
      return nullptr;
    }
  } catch (const py::error_already_set&) {  // a failure while explaining: the original error stands
  }
  PyErr_Restore(type, value, traceback);
  return nullptr;
}

py::object checked(py::handle function, const std::string& label) {
  auto* c = new Checked;
  c->name = py::str(function.attr("__name__"));
  c->label = label;
  c->doc = py::str(function.attr("__doc__"));
  c->original = py::reinterpret_borrow<py::object>(function);
  c->def.ml_name = c->name.c_str();
  c->def.ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&call_checked));
  c->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
  c->def.ml_doc = c->doc.c_str();  // help() shows the original signatures
  py::capsule owner(c, [](void* p) { delete static_cast<Checked*>(p); });
  return py::reinterpret_steal<py::object>(PyCFunction_NewEx(&c->def, owner.ptr(), py::str("meeple._meeple").ptr()));
}

}  // namespace

std::string describe(py::handle value) {
  if (value.is_none()) return "None";
  const std::string text = py::str(py::module_::import("reprlib").attr("repr")(value));  // long values shortened
  return std::string(py::str(py::type::handle_of(value).attr("__name__"))) + " " + text;
}

std::string utf8_text(py::handle value, const std::string& what) {
  if (PyUnicode_Check(value.ptr())) {
    Py_ssize_t size = 0;
    if (const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size)) return std::string(data, static_cast<size_t>(size));
    const py::error_already_set e;  // a lone surrogate (text read with errors="surrogateescape")
    const auto start = e.value().attr("start").cast<size_t>();
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", PyUnicode_ReadChar(value.ptr(), static_cast<Py_ssize_t>(start)));
    throw std::invalid_argument(what + ": not valid UTF-8: character " + code + " at offset " + std::to_string(start) +
                                " (" + std::string(py::str(e.value().attr("reason"))) + ")");
  }
  if (PyBytes_Check(value.ptr())) {
    const std::string bytes = py::reinterpret_borrow<py::bytes>(value);
    if (PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "strict")) {
      Py_DECREF(text);
      return bytes;
    }
    const py::error_already_set e;
    const auto start = e.value().attr("start").cast<size_t>();
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(bytes[start]));
    throw std::invalid_argument(what + ": not valid UTF-8: byte " + hex + " at offset " + std::to_string(start) + " (" +
                                std::string(py::str(e.value().attr("reason"))) + ")");
  }
  throw py::type_error(what + " must be str or bytes, got " + describe(value));
}

void init_errors(py::module_& m) {
  static const py::handle rules_error = py::register_exception<RulesViolation>(m, "RulesError", PyExc_Exception);
  // The mapping is pybind11's (ValueError for invalid_argument, ...); only the text is made valid UTF-8.
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::builtin_exception&) {  // already Python errors with text of our own
      throw;
    } catch (const py::error_already_set&) {
      throw;
    } catch (const RulesViolation& e) {
      set_error(rules_error.ptr(), e.what());
    } catch (const IllegalChoice& e) {
      set_error(rules_error.ptr(), e.what());
    } catch (const std::invalid_argument& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const std::domain_error& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const std::length_error& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const std::out_of_range& e) {
      set_error(PyExc_IndexError, e.what());
    } catch (const std::range_error& e) {
      set_error(PyExc_ValueError, e.what());
    } catch (const std::overflow_error& e) {
      set_error(PyExc_OverflowError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory");
    } catch (const std::exception& e) {
      set_error(PyExc_RuntimeError, e.what());
    }
  });
}

void check_arguments(py::module_& m) {
  const auto is_function = [](py::handle f) { return PyCFunction_Check(f.ptr()); };
  for (auto [key, value] : py::dict(m.attr("__dict__"))) {  // copies: the originals are replaced while walking
    const std::string name = py::str(key);
    if (is_function(value)) {
      m.attr(name.c_str()) = checked(value, name);
    } else if (PyType_Check(value.ptr()) && !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(value.ptr()),
                                                                reinterpret_cast<PyTypeObject*>(PyExc_BaseException))) {
      const std::string cls = name;
      for (auto [attr, member] : py::dict(value.attr("__dict__"))) {
        const std::string method = py::str(attr);
        if (method.starts_with("_pybind11")) continue;  // pybind11's own, for other modules
        const std::string label = method == "__init__" ? cls : cls + "." + method;
        if (PyInstanceMethod_Check(member.ptr()) && is_function(PyInstanceMethod_GET_FUNCTION(member.ptr()))) {
          const py::object wrapped = checked(PyInstanceMethod_GET_FUNCTION(member.ptr()), label);
          value.attr(method.c_str()) = py::reinterpret_steal<py::object>(PyInstanceMethod_New(wrapped.ptr()));
        } else if (py::isinstance(member, py::module_::import("builtins").attr("staticmethod")) &&
                   is_function(member.attr("__func__"))) {
          value.attr(method.c_str()) = py::module_::import("builtins").attr("staticmethod")(checked(member.attr("__func__"), label));
        }
      }
    }
  }
}

}  // namespace meeple::python
