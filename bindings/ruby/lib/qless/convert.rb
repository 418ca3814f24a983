# frozen_string_literal: true

module Qless
  # Conversions between Ruby values and what the C core takes and gives:
  # JSON text, list handles (read once, then freed at once), milliseconds.
  module Convert
    module_function

    # Job data: a String is taken to be JSON already (the core rejects bad
    # JSON with InvalidArgument); nil means "{}".
    def dump(data) = data.nil? || data.is_a?(String) ? data : JSON.generate(data)
    def parse(text) = text.nil? || text.empty? ? nil : JSON.parse(text)

    # The core's handles keep their client alive in C, but Ruby's views
    # (job.queue, job.client) need the Ruby object.
    def bind(client, handle) = handle&.tap { handle.instance_variable_set(:@client, client) }

    # Items of a list handle (size + an item per index), which is freed.
    def drain(list)
      Array.new(list.size) { |i| yield list, i }
    ensure
      Core.release(list)
    end

    def strings(list) = drain(list) { |l, i| l.get(i) }
    def pairs(list) = drain(list) { |l, i| [l.get(i), l.number(i)] }
    # Each job is taken out of the list, so it outlives it.
    def jobs(client, list) = drain(list) { |l, i| Job.new(client, l.take(i)) }
    # Items as Strings, the way the Ruby API always took lists.
    def strv(values) = values.flatten.map(&:to_s)

    # A released handle shows no details: SWIG's type errors inspect the
    # object, and its getters would raise again.
    def inspect(handle, label) = "#<Qless::#{label} #{Core.released?(handle) ? "(released)" : yield}>"

    def ms(seconds) = seconds && (seconds * 1000).round

    # A port or state value as JSON text (a String is a string, unlike job data).
    def value(data, what)
      JSON.generate(data)
    rescue JSON::GeneratorError, SystemStackError => e
      raise ArgumentError, "#{what} cannot be sent as JSON: #{e.message}"
    end

    def load(text) = text && JSON.parse(text)

    # Ports for put, PortSide#define and a job class's declaration: a Hash
    # of name => options (nil: {}), names, or JSON text taken as it is.
    def ports(spec, what)
      case spec
      when String then spec
      when Hash then value(spec.to_h { |name, opts| [name.to_s, opts || {}] }, what)
      when Array then value(spec.to_h { |name| [name.to_s, {}] }, what)
      else raise TypeError, "#{what}: ports must be a Hash of name => options or an Array of names, " \
                            "not #{spec.class}"
      end
    end

    # The job-tree options of put and requeue (jobtrees.md §5.2) as the C
    # put options take them.
    def tree_options(what, tree: false, parent: nil, name: nil, inports: nil, outports: nil, aliases: nil, by: nil)
      { tree: tree ? 1 : nil, parent: parent && jid(parent), name: name&.to_s,
        inports: inports && ports(inports, "#{what}: inports"),
        outports: outports && ports(outports, "#{what}: outports"),
        aliases: aliases && strv([aliases]), by: by&.to_s }
    end

    def jid(job) = job.respond_to?(:jid) ? job.jid : job.to_s

    # The core checks the range; Integer("3") would let a String through.
    def count(value, what)
      value.is_a?(Integer) ? value : raise(TypeError, "#{what}: count must be an Integer, not #{value.inspect}")
    end
  end
end
