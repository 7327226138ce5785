import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Kopek's CPU in a JFR recording (run-side-by-side.sh JFR=1), grouped so that a flat profile still says whose work
 * it is: each CPU sample is charged to the layer its leaf runs in (Tomcat, Jackson, pgjdbc, ...) and to the
 * entry it came through, the nearest Kopek frame on its stack (the Kopek code that asked for that work), or, where
 * no Kopek frame is on the stack, the nearest filter, valve or handler of the framework (work done for every
 * request before or after Kopek's code). Kopek's CPU per payment times a row's share is that row's cost.
 *
 * <p>Run with the JDK alone: {@code java benchmarks/JfrProfile.java kopek.jfr [top [method]]}, the last
 * printing the leaves of the samples with that method (a substring of its name) on their stack; kopek-profile.md reads it.
 */
public class JfrProfile {

    /** Layers by class-name prefix, the first match from the leaf deciding; Kopek's own code last but one. */
    static final String[][] LAYERS = {
        {"logging", "ch.qos.logback", "org.slf4j", "net.logstash"},
        {"jackson", "com.fasterxml.jackson", "tools.jackson"},
        {"pgjdbc", "org.postgresql"},
        {"hikari", "com.zaxxer"},
        {"spring-jdbc", "org.springframework.jdbc"},
        {"psp http client", "org.apache.hc", "java.net.http", "jdk.internal.net.http"},
        {"observation", "io.micrometer", "org.springframework.web.filter.ServerHttpObservationFilter", "brave"},
        {"spring-security", "org.springframework.security"},
        {"spring-tx", "org.springframework.transaction"},
        {"spring-mvc", "org.springframework"},
        {"tomcat", "org.apache.catalina", "org.apache.coyote", "org.apache.tomcat"},
        {"kopek", "dev.kopek"},
        {"jdk", "java.", "jdk.", "sun.", "jakarta."},
    };

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        String drill = args.length > 2 ? args[2] : null;
        Map<String, Integer> drilled = new HashMap<>();
        Map<String, Integer> layers = new HashMap<>();
        Map<String, Integer> entries = new HashMap<>();
        Map<String, Integer> entryAndLayer = new HashMap<>();
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        List<RecordedEvent> events = RecordingFile.readAllEvents(Path.of(args[0]));
        // The CPU-time sampler's events when the recording has them (each one is 10 ms of a thread's CPU), else the
        // execution sampler's (threads seen running Java code, a few per period).
        String kind = events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.CPUTimeSample"))
                ? "jdk.CPUTimeSample"
                : "jdk.ExecutionSample";
        int total = 0;
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals(kind)) {
                continue;
            }
            total++;
            RecordedStackTrace stack = event.getStackTrace();
            var thread = event.getThread(kind.equals("jdk.CPUTimeSample") ? "eventThread" : "sampledThread");
            String threadName = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
            threads.merge(threadName.replaceAll("[0-9]+", "N"), 1, Integer::sum);
            if (stack == null || stack.getFrames().isEmpty()) {
                layers.merge("no Java stack", 1, Integer::sum);
                entries.merge("[no Java stack] " + threadName.replaceAll("[0-9]+", "N"), 1, Integer::sum);
                continue;
            }
            List<RecordedFrame> frames = stack.getFrames();
            String layer = layerOfLeaf(frames);
            String entry = entry(frames);
            layers.merge(layer, 1, Integer::sum);
            entries.merge(entry, 1, Integer::sum);
            entryAndLayer.merge(entry + "  ->  " + layer, 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String name = name(frame);
                if (name.startsWith("dev.kopek") && seen.add(name)) {
                    inclusive.merge(name, 1, Integer::sum);
                }
            }
            if (drill != null && frames.stream().anyMatch(f -> name(f).contains(drill))) {
                drilled.merge(chain(frames, 4), 1, Integer::sum);
            }
        }
        System.out.println(kind + " samples " + total);
        print("where the CPU burns (the leaf's layer)", layers, total, top);
        print("whose work it is (nearest Kopek frame, else the framework's filter/valve/handler)", entries, total, top);
        print("entry -> layer", entryAndLayer, total, top);
        print("Kopek methods, inclusive (on the stack anywhere)", inclusive, total, top);
        print("threads", threads, total, 10);
        if (drill != null) {
            print("under " + drill + ": leaf and its callers", drilled, total, top);
        }
    }

    static String layerOfLeaf(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (String[] layer : LAYERS) {
                for (int i = 1; i < layer.length; i++) {
                    if (type.startsWith(layer[i]) && !layer[0].equals("jdk")) {
                        return layer[0];
                    }
                }
            }
        }
        return "jdk";
    }

    /**
     * The nearest frame from the leaf that is Kopek's or a component of the framework (a filter, valve, servlet,
     * handler or processor): filters nest, so the nearest one, not the outermost, is the one doing the work.
     */
    static String entry(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("dev.kopek")) {
                return shortName(frame);
            }
            if (!type.startsWith("java") && COMPONENT.matcher(type).matches()) {
                return "[framework] " + shortName(frame);
            }
        }
        return "[other] " + shortName(frames.get(0));
    }

    static final Pattern COMPONENT =
            Pattern.compile(".*(Filter|Valve|Servlet|HandlerAdapter|Processor|SocketProcessor|ReturnValueHandler)");

    static String chain(List<RecordedFrame> frames, int depth) {
        StringBuilder chain = new StringBuilder();
        for (int i = 0; i < Math.min(depth, frames.size()); i++) {
            chain.append(i == 0 ? "" : " < ").append(shortName(frames.get(i)));
        }
        return chain.toString();
    }

    static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    static String shortName(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
    }

    static void print(String title, Map<String, Integer> counts, int total, int limit) {
        System.out.println("== " + title);
        counts.entrySet().stream()
                .sorted((x, y) -> y.getValue() - x.getValue())
                .limit(limit)
                .forEach(x -> System.out.printf("%6.2f%% %6d %s%n", 100.0 * x.getValue() / total, x.getValue(), x.getKey()));
    }
}
